import { LOAD_NCBI_TAXONOMY, LoadNcbiTaxonomyPayload } from '@svc/contracts';
import { parseNodesDmpLine, TaxonNode } from '@svc/domain';
import { defineOperation, JobError } from '@svc/jobs';
import { readLines, sourcePolicyOf } from '@svc/platform';
import { sourceFailure } from './source-failure';

/**
 * Loads an NCBI taxonomy `nodes.dmp` (streamed; gzip recognised) into `taxonomy_node`, replacing
 * the previous tree in one transaction. Malformed lines are counted and listed (first 100); the job
 * fails when more than 1% of the lines are malformed.
 */
export const loadNcbiTaxonomyOperation = defineOperation<LoadNcbiTaxonomyPayload>({
  spec: LOAD_NCBI_TAXONOMY,
  async execute({ payload, repos, emit, config, artifacts, throwIfCancelled }) {
    const nodes: TaxonNode[] = [];
    const problems: { line: number; message: string }[] = [];
    let lineNumber = 0;
    let problemCount = 0;
    try {
      for await (const line of readLines(payload.nodes_url, sourcePolicyOf(config, artifacts))) {
        lineNumber += 1;
        const parsed = parseNodesDmpLine(line);
        if (parsed === null) continue;
        if ('problem' in parsed) {
          problemCount += 1;
          if (problems.length < 100) problems.push({ line: lineNumber, message: parsed.problem });
          continue;
        }
        nodes.push(parsed);
      }
    } catch (error) {
      throw sourceFailure(error);
    }
    if (nodes.length === 0) throw new JobError('empty_source', `${payload.nodes_url} holds no taxonomy node`);
    if (problemCount > lineNumber * 0.01)
      throw new JobError(
        'too_many_malformed_lines',
        `${problemCount} of ${lineNumber} lines are malformed (first at line ${problems[0]?.line})`,
      );
    await throwIfCancelled();
    await repos.taxonomy.replaceAll(nodes, payload.source_version ?? null);
    await emit('load_ncbi_taxonomy.done', null, { nodes: nodes.length, malformed_lines: problemCount });
    return { nodes: nodes.length, malformed_lines: problemCount, malformed: problems };
  },
});
