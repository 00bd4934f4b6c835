// DIAMOND hits of a window's targets against its donor proteins, through the same runner the
// prediction worker uses.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HomologyHit } from '@svc/domain';
import {
  DEFAULT_DIAMOND_SEARCH,
  diamondSearch,
  type DiamondSearchOptions,
  ensureDiamondDatabase,
  type SequenceRecord,
} from '@svc/inference';
import { HOMOLOGY_HITS, HOMOLOGY_SELF_MARGIN } from '@svc/go-transfer';
import { CATEGORIES, type QualityWindow } from './windows';

export interface WindowHits {
  hits: Map<string, HomologyHit[]>;
  queries: number;
  references: number;
  /** Seconds of `makedb` and of the search. */
  makedbSeconds: number;
  searchSeconds: number;
}

/**
 * DIAMOND's hits of the window's targets against its donors, with the prediction worker's settings
 * unless `settings` says otherwise (the settings study, tools/study/homology-settings.ts).
 */
export async function searchWindow(
  window: QualityWindow,
  cacheDir = join(tmpdir(), 'svc-quality'),
  settings: Partial<Pick<DiamondSearchOptions, 'sensitivity' | 'evalue'>> = {},
): Promise<WindowHits> {
  const references: SequenceRecord[] = [...window.references.keys()]
    .sort()
    .map((id) => ({ id, sequence: window.sequences.get(id) ?? '' }));
  const targets = new Set<string>();
  for (const category of CATEGORIES)
    for (const target of window.targets[category].keys()) targets.add(target);
  const queries = [...targets].sort().map((id) => ({ id, sequence: window.sequences.get(id) ?? '' }));
  let started = process.hrtime.bigint();
  const database = await ensureDiamondDatabase({ dir: cacheDir, references });
  const makedbSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  started = process.hrtime.bigint();
  // As the prediction worker asks: extra targets, so dropping the query's own entry still leaves 50.
  const hits = await diamondSearch({
    database,
    queries,
    options: {
      sensitivity: settings.sensitivity ?? DEFAULT_DIAMOND_SEARCH.sensitivity,
      evalue: settings.evalue ?? DEFAULT_DIAMOND_SEARCH.evalue,
      maxTargetSeqs: HOMOLOGY_HITS + HOMOLOGY_SELF_MARGIN,
    },
  });
  const searchSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { hits, queries: queries.length, references: references.length, makedbSeconds, searchSeconds };
}
