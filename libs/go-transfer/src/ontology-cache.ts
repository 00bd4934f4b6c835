import { TermInfo } from '@svc/domain';
import { Repositories } from '@svc/persistence';

/** GO terms and is_a/part_of ancestors of one snapshot, loaded once per worker process. */
export interface OntologyView {
  readonly termInfo: (goTermId: number) => TermInfo | null;
  readonly ancestorsOf: (goTermId: number) => readonly number[];
  /** The live term a GO id names, directly or as one of its alternate ids (alt_id); undefined if none. */
  readonly termIdOf: (goId: string) => number | undefined;
}

const cache = new Map<string, Promise<OntologyView>>();

export function ontologyView(repos: Repositories, snapshotId: string): Promise<OntologyView> {
  let view = cache.get(snapshotId);
  if (view === undefined) {
    view = load(repos, snapshotId);
    cache.set(snapshotId, view);
    view.catch(() => cache.delete(snapshotId));
  }
  return view;
}

async function load(repos: Repositories, snapshotId: string): Promise<OntologyView> {
  const ontology = repos.ontologies;
  const terms = await ontology.liveTermAspects(snapshotId);
  const edges = await ontology.isAPartOfEdges(snapshotId);
  const info = new Map<number, TermInfo>();
  for (const t of terms) if (t.aspect !== null) info.set(t.id, { goId: t.go_id, aspect: t.aspect });
  // GO id -> live term, alternate ids included (a file may name a term by an id it was merged from):
  // built on first use, since only submitted known terms (GO= at upload) are looked up by GO id.
  const altIds = await ontology.liveAltIds(snapshotId);
  let byGoId: Map<string, number> | null = null;
  const termIdOf = (goId: string): number | undefined => {
    if (byGoId === null) {
      byGoId = new Map(
        altIds.filter((alt) => info.has(alt.go_term_id)).map((alt) => [alt.alt_id, alt.go_term_id]),
      );
      for (const [id, term] of info) byGoId.set(term.goId, id);
    }
    return byGoId.get(goId);
  };
  const parents = new Map<number, number[]>();
  for (const e of edges) {
    let list = parents.get(e.child);
    if (list === undefined) parents.set(e.child, (list = []));
    list.push(e.parent);
  }
  const ancestors = new Map<number, number[]>();
  const ancestorsOf = (id: number): readonly number[] => {
    const known = ancestors.get(id);
    if (known !== undefined) return known;
    const seen = new Set<number>();
    const stack = [...(parents.get(id) ?? [])];
    while (stack.length > 0) {
      const next = stack.pop()!;
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(...(parents.get(next) ?? []));
    }
    const list = [...seen];
    ancestors.set(id, list);
    return list;
  };
  return { termInfo: (id) => info.get(id) ?? null, ancestorsOf, termIdOf };
}
