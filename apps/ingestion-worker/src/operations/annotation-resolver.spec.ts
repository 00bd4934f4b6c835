import type { SnapshotView, TermRef } from '@svc/persistence';
import { AnnotationResolver, releaseHint } from './annotation-resolver';

const SNAPSHOT = { obo_version: 'releases/2099-01-01', term_count: 3 } as SnapshotView;

function resolver(): AnnotationResolver {
  const terms = new Map<string, TermRef>([
    ['GO:0000001', { id: 1, go_id: 'GO:0000001', aspect: 'F', is_obsolete: false }],
    ['GO:0000011', { id: 1, go_id: 'GO:0000001', aspect: 'F', is_obsolete: false }],
    ['GO:0000002', { id: 2, go_id: 'GO:0000002', aspect: 'F', is_obsolete: true }],
  ]);
  return new AnnotationResolver(terms);
}

describe('AnnotationResolver.checkAgainst', () => {
  it('resolves alt ids, counts unknown and obsolete ids, and passes at the tolerated share', () => {
    const r = resolver();
    expect(r.resolve('GO:0000011')?.go_id).toBe('GO:0000001');
    expect(r.resolve('GO:0000002')).toBeNull();
    expect(r.resolve('GO:9999999')).toBeNull();
    expect(r.stats(4)).toMatchObject({
      unknown_go_ids: 1,
      obsolete_go_ids: 1,
      alt_ids_resolved: 1,
      unresolved_share: 0.5,
    });
    expect(() => r.checkAgainst(SNAPSHOT, 4, 0.5, null)).not.toThrow();
    expect(() => r.checkAgainst(SNAPSHOT, 0, 0, null)).not.toThrow();
  });

  it('fails ontology_mismatch above it, saying which way the file differs', () => {
    const r = resolver();
    r.resolve('GO:0000002');
    r.resolve('GO:0000002');
    r.resolve('GO:9999999');
    expect(() => r.checkAgainst(SNAPSHOT, 10, 0.05, 'The file was generated on 1999-01-01')).toThrow(
      expect.objectContaining({
        code: 'ontology_mismatch',
        message: expect.stringMatching(
          /^3 of 10 records \(30\.0 %\) name GO ids that ontology snapshot releases\/2099-01-01 \(3 terms\) does not have live \(1 unknown, 2 obsolete; first unknown: GO:9999999\); the load tolerates 5\.0 % \(max_unresolved_ratio\)\. mostly obsolete ids: the file is older than this release\. The file was generated on 1999-01-01: load the GO release/,
        ),
      }),
    );
  });
});

describe('releaseHint', () => {
  it.each<[Record<string, string>, string | null, string | null]>([
    [
      {
        'go-version': 'http://purl.obolibrary.org/obo/go/releases/2022-07-01/go.owl',
        'date-generated': '2022-09-01',
      },
      null,
      'The file names GO release http://purl.obolibrary.org/obo/go/releases/2022-07-01/go.owl',
    ],
    [{ 'Date-Generated': '2022-09-01T10:00' }, '2020-01-01', 'The file was generated on 2022-09-01'],
    [{ 'go-version': 'x y <script>' }, '2020-01-01', "The file's newest annotation is dated 2020-01-01"],
    [{ 'date-generated': 'yesterday' }, null, null],
  ])('%j, newest %s -> %s', (header, newest, expected) => {
    expect(releaseHint(header, newest)).toBe(expected);
  });
});
