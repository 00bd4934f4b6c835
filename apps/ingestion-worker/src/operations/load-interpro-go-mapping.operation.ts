import { LOAD_INTERPRO_GO_MAPPING, LoadInterproGoMappingPayload } from '@svc/contracts';
import { parseInterpro2Go } from '@svc/domain';
import { defineOperation, JobError } from '@svc/jobs';
import { readText, sourcePolicyOf } from '@svc/platform';
import { sourceFailure } from './source-failure';

/** Loads the public interpro2go file; a pair seen before is updated to the new source version. */
export const loadInterproGoMappingOperation = defineOperation<LoadInterproGoMappingPayload>({
  spec: LOAD_INTERPRO_GO_MAPPING,
  async execute({ payload, emit, repos, config, artifacts }) {
    let text: string;
    try {
      text = await readText(payload.url, sourcePolicyOf(config, artifacts));
    } catch (error) {
      throw sourceFailure(error);
    }
    const parsed = parseInterpro2Go(text);
    if (parsed.mappings.length === 0)
      throw new JobError('empty_source', 'the file holds no InterPro to GO mapping line');
    const version = parsed.sourceVersion ?? 'unknown';
    const unique = [...new Map(parsed.mappings.map((m) => [`${m.iprAccession}|${m.goId}`, m])).values()];
    await repos.interpro.upsertGoMappings(
      unique.map((m) => ({ iprAccession: m.iprAccession, goId: m.goId })),
      version,
    );
    const result = {
      source_version: parsed.sourceVersion,
      mappings: unique.length,
      malformed_lines: parsed.errors.length,
      malformed_line_samples: parsed.errors.slice(0, 100),
    };
    await emit('load_interpro_go_mapping.done', null, {
      ...result,
      malformed_line_samples: parsed.errors.slice(0, 10),
    });
    return result;
  },
});
