import { JobError } from '@svc/jobs';
import { termPrior } from '@svc/domain';
import { checkAssociationFits, checkPoolFits, POOL_BYTES } from './homology-pool';
import { PoolColumns, PriorCounter, propagateAnnotations, propagateSubmitted } from './pool-columns';
import type { OntologyView } from './ontology-cache';

const MB = 1024 * 1024;

describe('checkPoolFits: a pool the worker cannot hold fails its job, not the process', () => {
  const swissProt = { proteins: 516_371, annotations: 1_988_112 };

  it('lets a pool within its share of the free heap through', () => {
    expect(() => checkPoolFits(swissProt, 0.5, { limit: 4096 * MB, used: 200 * MB })).not.toThrow();
  });

  it('refuses a larger one with reference_too_large, saying what it needs and what would make it fit', () => {
    let thrown: unknown;
    try {
      checkPoolFits(swissProt, 0.5, { limit: 256 * MB, used: 100 * MB });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(JobError);
    const error = thrown as JobError;
    expect(error.code).toBe('reference_too_large');
    const needed =
      POOL_BYTES.fixed +
      swissProt.proteins * POOL_BYTES.perProtein +
      swissProt.annotations * POOL_BYTES.perAnnotation;
    expect(error.message).toContain(`516371 proteins, 1988112 donor annotations`);
    expect(error.message).toContain(`about ${Math.ceil(needed / MB)} MB`);
    expect(error.message).toContain('78 MB'); // half of the 156 MB free
    expect(error.message).toContain('--max-old-space-size');
    expect(error.message).toContain('SVC_POOL_MEMORY_FRACTION');
  });

  it('a fraction of 0 refuses every pool', () => {
    expect(() => checkPoolFits({ proteins: 1, annotations: 1 }, 0, { limit: 4096 * MB, used: 0 })).toThrow(
      JobError,
    );
  });
});

describe('checkAssociationFits: an association index the worker cannot hold fails its job', () => {
  const index = { proteins: 516_371, postings: 30_000_000, bytes: 150 * MB };

  it('lets an index within its share of the free heap through', () => {
    expect(() => checkAssociationFits(index, 0.5, { limit: 4096 * MB, used: 1024 * MB })).not.toThrow();
  });

  it('refuses a larger one with reference_too_large, naming the index and what would make it fit', () => {
    let thrown: unknown;
    try {
      checkAssociationFits(index, 0.5, { limit: 1024 * MB, used: 824 * MB });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(JobError);
    const error = thrown as JobError;
    expect(error.code).toBe('reference_too_large');
    expect(error.message).toContain('association index');
    expect(error.message).toContain('516371 proteins, 30000000 term postings');
    expect(error.message).toContain('about 150 MB');
    expect(error.message).toContain('100 MB'); // half of the 200 MB free
    expect(error.message).toContain('--max-old-space-size');
  });
});

describe('propagateAnnotations', () => {
  // 1 (F root) <- 2 <- 3 ; 4 (P root) <- 5 ; 6 is a P term whose parent is the F term 2 (cross-aspect).
  const parents: Record<number, number[]> = { 2: [1], 3: [2], 5: [4], 6: [2, 4] };
  const aspects: Record<number, 'F' | 'P'> = { 1: 'F', 2: 'F', 3: 'F', 4: 'P', 5: 'P', 6: 'P' };
  const ontology: OntologyView = {
    termInfo: (id) => (aspects[id] === undefined ? null : { goId: `GO:${id}`, aspect: aspects[id] }),
    ancestorsOf: (id) => {
      const out = new Set<number>();
      const stack = [...(parents[id] ?? [])];
      while (stack.length > 0) {
        const next = stack.pop()!;
        if (!out.has(next)) stack.push(...(parents[next] ?? []));
        out.add(next);
      }
      return [...out];
    },
    // GO:0000033 is an alternate id of 3, merged into it; GO:7 is obsolete (not a live term).
    termIdOf: (goId) => {
      if (goId === 'GO:0000033') return 3;
      const id = Number(goId.slice(3));
      return aspects[id] === undefined ? undefined : id;
    },
  };
  const ann = (id: number, evidenceCode: string) => ({
    goTermId: id,
    goId: `GO:${id}`,
    aspect: aspects[id]!,
    qualifier: null,
    evidenceCode,
  });

  it('carries each term once per aspect, own annotations kept as direct, roots and other aspects left out', () => {
    const direct3 = ann(3, 'IDA');
    const direct2 = ann(2, 'IEA');
    const direct6 = ann(6, 'EXP');
    const out = propagateAnnotations(ontology, [direct3, direct2, direct6]);
    expect(out.get('F')!.map((t) => [t.goId, t.direct?.evidenceCode ?? null, t.via.evidenceCode])).toEqual([
      ['GO:3', 'IDA', 'IDA'],
      ['GO:2', 'IEA', 'IEA'],
    ]);
    expect(out.get('P')!.map((t) => [t.goId, t.direct?.evidenceCode ?? null])).toEqual([['GO:6', 'EXP']]);
  });

  it('submitted known ids propagate as annotations do; an alternate id is its term; unknown ids are returned', () => {
    const { terms, unknown } = propagateSubmitted(ontology, [
      'GO:0000033',
      'GO:6',
      'GO:7',
      'GO:1',
      'GO:2',
      'GO:9',
    ]);
    const listed = (aspect: 'F' | 'P') =>
      [...(terms.get(aspect)?.values() ?? [])].map((t) => [t.goId, t.goTermId, t.direct]);
    // 3 (as its alternate id) brings 2; 2 is also submitted itself, so it is direct; the root 1 is no term.
    expect(listed('F')).toEqual([
      ['GO:3', 3, true],
      ['GO:2', 2, true],
    ]);
    // 6's parent 2 is of another aspect and its other parent 4 the root: 6 alone.
    expect(listed('P')).toEqual([['GO:6', 6, true]]);
    expect(terms.has('C')).toBe(false);
    expect(unknown).toEqual(['GO:7', 'GO:9']);
    expect(propagateSubmitted(ontology, ['GO:5']).terms.get('P')!.get('GO:5')).toEqual({
      goTermId: 5,
      goId: 'GO:5',
      direct: true,
    });
  });

  it('an annotation to a namespace root alone gives no term', () => {
    expect(propagateAnnotations(ontology, [ann(1, 'IDA')]).size).toBe(0);
  });

  it('the pool counts the priors over exactly the propagated term sets, without building them', () => {
    const proteins = [
      [ann(3, 'IDA'), ann(2, 'IEA'), ann(6, 'EXP')],
      [ann(1, 'IDA')],
      [ann(5, 'IMP'), ann(2, 'IDA')],
      [ann(3, 'IDA'), ann(3, 'IEA')],
      [ann(4, 'IDA'), ann(6, 'IDA'), ann(5, 'IDA')],
    ];
    const columns = new PoolColumns();
    const counter = new PriorCounter(ontology);
    const direct: Record<string, number>[] = [];
    proteins.forEach((annotations, index) => {
      columns.add({
        accession: `P${index}`,
        canonicalAccession: `P${index}`,
        sequenceId: index,
        sequence: 'MK',
        goTermIds: annotations.map((a) => a.goTermId),
        goIds: annotations.map((a) => a.goId),
        aspects: annotations.map((a) => a.aspect),
        evidenceCodes: annotations.map((a) => a.evidenceCode),
        qualifiers: annotations.map(() => null),
      });
      direct.push(counter.add(columns, index).direct);
    });
    const { priors } = counter.priors();
    const sets = proteins.map((annotations) => propagateAnnotations(ontology, annotations));
    for (const aspect of ['F', 'P', 'C'] as const) {
      const expected = termPrior(sets.map((s) => (s.get(aspect) ?? []).map((t) => t.goId)));
      expect(priors[aspect]).toEqual(expected);
      expect(direct.map((d) => d[aspect])).toEqual(
        sets.map((s) => (s.get(aspect) ?? []).filter((t) => t.direct !== null).length),
      );
    }
    expect(priors.F.proteins).toBe(3);
    expect(priors.P.proteins).toBe(3);
  });
});
