import { firstTokens, plainValue, quotedValue, splitTagValue, unescapeObo } from './obo-value';

describe('splitTagValue', () => {
  it.each([
    ['id: GO:0000001', { tag: 'id', value: 'GO:0000001' }],
    ['date: 10:09:2020 12:00', { tag: 'date', value: '10:09:2020 12:00' }],
    ['ontology:go', { tag: 'ontology', value: 'go' }],
    ['  name :  spaced  ', { tag: 'name', value: 'spaced' }],
    ['empty:', { tag: 'empty', value: '' }],
    ['no colon here', null],
    [': no tag', null],
  ])('%j', (line, expected) => expect(splitTagValue(line)).toEqual(expected));
});

describe('unescapeObo', () => {
  it.each([
    ['plain', 'plain'],
    ['a \\"quoted\\" word', 'a "quoted" word'],
    ['back\\\\slash', 'back\\slash'],
    ['line\\nbreak\\ttab', 'line\nbreak\ttab'],
    ['white\\Wspace', 'white space'],
    ['\\!\\{\\}\\:\\,', '!{}:,'],
    ['trailing\\', 'trailing\\'],
  ])('%j', (text, expected) => expect(unescapeObo(text)).toBe(expected));
});

describe('plainValue', () => {
  it.each([
    ['GO:0000001', 'GO:0000001'],
    ['GO:0000001 ! a comment', 'GO:0000001'],
    ['GO:0000001 {source="x"} ! a comment', 'GO:0000001'],
    ['GO:0000001 {a="1", b="{nested}"}', 'GO:0000001'],
    ['N-{acetyl}glucosamine', 'N-{acetyl}glucosamine'],
    ['braces {inside} the middle', 'braces {inside} the middle'],
    ['escaped \\! bang ! comment', 'escaped ! bang'],
    ['{only a modifier}', ''],
    ['unclosed {brace', 'unclosed {brace'],
    ['', ''],
  ])('%j', (value, expected) => expect(plainValue(value)).toBe(expected));
});

describe('quotedValue', () => {
  it.each([
    ['"Text." [GOC:x, PMID:1]', 'Text.'],
    ['"Say \\"hi\\" now." []', 'Say "hi" now.'],
    ['"Ends with a backslash \\\\" []', 'Ends with a backslash \\'],
    ['"Has ! and {braces} [x]" [] {mod} ! comment', 'Has ! and {braces} [x]'],
    ['"Unterminated text', 'Unterminated text'],
    ['unquoted text ! comment', 'unquoted text'],
    ['""', ''],
  ])('%j', (value, expected) => expect(quotedValue(value)).toBe(expected));
});

describe('firstTokens', () => {
  it.each([
    ['part_of GO:0000002 ! whole', 2, ['part_of', 'GO:0000002']],
    ['part_of   GO:0000002 {source="x"}', 2, ['part_of', 'GO:0000002']],
    ['GO:0000001 extra words', 1, ['GO:0000001']],
    ['part_of', 2, ['part_of']],
    ['! only a comment', 2, []],
  ])('%j', (value, count, expected) => expect(firstTokens(value, count)).toEqual(expected));
});
