import { BenchmarkConfig, parseBenchmarkConfig } from '@svc/domain';
import { AppConfig, readBenchmarkConfigFile } from '@svc/platform';

export async function loadBenchmarkConfig(config: AppConfig): Promise<BenchmarkConfig> {
  return parseBenchmarkConfig(await readBenchmarkConfigFile(config));
}
