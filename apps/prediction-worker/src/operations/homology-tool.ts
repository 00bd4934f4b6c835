import { DEFAULT_DIAMOND_SEARCH, diamondMemoryBudget, diamondVersion } from '@svc/inference';
import { JobError } from '@svc/jobs';
import { BackgroundTask, Infrastructure } from '@svc/bootstrap';

const checked = new Map<string, Promise<string | null>>();

/** The installed DIAMOND version, asked once per process and binary (a later install needs a restart). */
export function installedDiamond(binary: string): Promise<string | null> {
  let version = checked.get(binary);
  if (version === undefined) checked.set(binary, (version = diamondVersion(binary)));
  return version;
}

/** Fails the job with a stable code when the backend's aligner is not installed. */
export async function requireHomologyTool(backend: string, binary: string): Promise<void> {
  if (backend !== 'diamond') return;
  if ((await installedDiamond(binary)) !== null) return;
  throw new JobError(
    'search_tool_missing',
    `search_backend diamond needs the DIAMOND aligner ('${binary}' was not found): install Debian's diamond-aligner ` +
      `package on the prediction worker, or ask for search_backend numpy`,
  );
}

/**
 * Says at start whether the default search backend can run, so an operator sees a missing aligner in
 * the worker's first lines instead of in a failed job.
 */
export function announceHomologyTool(infra: Infrastructure): BackgroundTask {
  const binary = infra.config.diamondBin;
  const check = installedDiamond(binary).then((version) => {
    if (version !== null) {
      // The settings a search will run with: threads from the CPU limit, the block from the memory
      // left beside the heap (unless SVC_DIAMOND_BLOCK_SIZE says), so a limit too tight shows here.
      infra.logger.info('DIAMOND found: search_backend diamond (the default) is available', {
        diamond: version,
        threads: DEFAULT_DIAMOND_SEARCH.threads,
        block_size: infra.config.diamondBlockSize ?? DEFAULT_DIAMOND_SEARCH.blockSize,
        block_size_from: infra.config.diamondBlockSize === null ? 'memory' : 'SVC_DIAMOND_BLOCK_SIZE',
        memory_left_mb: Math.round(diamondMemoryBudget() / (1024 * 1024)),
        index_chunks: infra.config.diamondIndexChunks,
      });
    } else {
      infra.logger.error(
        `DIAMOND not found ('${binary}'): install Debian's diamond-aligner package or set SVC_DIAMOND_BIN; until then predictions with search_backend diamond (the default) fail with search_tool_missing`,
      );
    }
  });
  return { stop: () => check };
}
