import { featureVector, LightGbmModel, parseLightGbmModel, predict } from '@svc/domain';
import { readText, SourcePolicy } from '@svc/platform';

const boosters = new Map<string, Promise<LightGbmModel>>();

/**
 * A LightGBM booster by URI, parsed once per process: a URI of the artifact store (`s3://` or
 * `file://`), or another source the source policy admits.
 */
export function loadBooster(uri: string, sources: SourcePolicy): Promise<LightGbmModel> {
  let entry = boosters.get(uri);
  if (entry === undefined) {
    entry = readText(uri, sources).then((text) => parseLightGbmModel(text));
    boosters.set(uri, entry);
    entry.catch(() => boosters.delete(uri));
  }
  return entry;
}

/** The booster's score (probability for binary models) of each prediction row. */
export function scoreRows(
  model: LightGbmModel,
  rows: readonly Readonly<Record<string, unknown>>[],
): number[] {
  return rows.map(
    (row) => predict({ model, features: featureVector(row, model.featureNames) })[0] ?? Number.NaN,
  );
}
