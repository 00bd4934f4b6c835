import { parseLinkHeader } from './link-header';

const NEXT =
  'https://rest.uniprot.org/uniprotkb/search?query=organism_id%3A9606&format=tsv&cursor=1mkycb2xwxbouut6ujm4ybq5oxv2idsd&size=500';

describe('parseLinkHeader', () => {
  it.each<{ name: string; value: string | null; links: Record<string, string> }>([
    { name: 'no header', value: null, links: {} },
    { name: 'empty header', value: '', links: {} },
    { name: 'UniProt REST paging', value: `<${NEXT}>; rel="next"`, links: { next: NEXT } },
    {
      name: 'two links',
      value: '<https://a/2>; rel="next", <https://a/0>; rel="prev"',
      links: { next: 'https://a/2', prev: 'https://a/0' },
    },
    { name: 'unquoted rel', value: '<https://a/2>; rel=next', links: { next: 'https://a/2' } },
    {
      name: 'several relations on one link',
      value: '<https://a/9>; rel="next last"',
      links: { next: 'https://a/9', last: 'https://a/9' },
    },
    {
      name: 'relation names in another case',
      value: '<https://a/2>; REL="Next"',
      links: { next: 'https://a/2' },
    },
    {
      name: 'white space around ; and =',
      value: ' <https://a/2> ;  rel = "next" ,\t<https://a/0>;rel="prev" ',
      links: { next: 'https://a/2', prev: 'https://a/0' },
    },
    {
      name: 'commas and semicolons inside the URL',
      value: '<https://a/x?fields=a,b;c>; rel="next"',
      links: { next: 'https://a/x?fields=a,b;c' },
    },
    {
      name: 'other parameters, quoted commas and escapes',
      value:
        '<https://a/2>; title="page 2, of \\"many\\"; really"; rel="next", <https://a/1>; type=text/html; rel=first',
      links: { next: 'https://a/2', first: 'https://a/1' },
    },
    {
      name: 'a link without rel',
      value: '<https://a/doc>; type="text/html", <https://a/2>; rel="next"',
      links: { next: 'https://a/2' },
    },
    {
      name: 'a relation used twice (first wins)',
      value: '<https://a/2>; rel="next", <https://a/3>; rel="next"',
      links: { next: 'https://a/2' },
    },
    {
      name: 'rel twice in one link (first wins)',
      value: '<https://a/2>; rel="next"; rel="prev"',
      links: { next: 'https://a/2' },
    },
    {
      name: 'a relative target, kept as written',
      value: '</uniprotkb/search?cursor=x>; rel="next"',
      links: { next: '/uniprotkb/search?cursor=x' },
    },
    {
      name: 'an extension relation type',
      value: '<https://a/>; rel="https://example.org/rel/search"',
      links: { 'https://example.org/rel/search': 'https://a/' },
    },
    {
      name: 'garbage before a good link',
      value: 'garbage; rel="x", <https://a/2>; rel="next"',
      links: { next: 'https://a/2' },
    },
    {
      name: 'garbage after a target',
      value: '<https://a/1> junk; rel="prev", <https://a/2>; rel="next"',
      links: { next: 'https://a/2' },
    },
    { name: 'an unterminated target', value: '<https://a/2; rel="next"', links: {} },
    { name: 'an unterminated quote', value: '<https://a/2>; rel="next', links: { next: 'https://a/2' } },
    { name: 'an empty rel', value: '<https://a/2>; rel=""', links: {} },
    {
      name: 'a parameter without value',
      value: '<https://a/2>; crossorigin; rel="next"',
      links: { next: 'https://a/2' },
    },
    {
      name: 'a relation named like an Object member',
      value: '<https://a/c>; rel="constructor"',
      links: { constructor: 'https://a/c' },
    },
  ])('$name', ({ value, links }) => {
    expect(Object.fromEntries(parseLinkHeader(value))).toEqual(links);
  });
});
