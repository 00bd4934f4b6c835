import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PLUGIN_GROUPS } from '../plugins';

// Health -----------------------------------------------------------------------------------------

export class HealthView {
  @ApiProperty({ enum: ['ok'], example: 'ok' }) status!: 'ok';
  @ApiPropertyOptional({
    example: 'ingestion-worker',
    description: "The worker's name, on a worker's own /health (SVC_METRICS_PORT); the gateway omits it",
  })
  service?: string;
}

export class ReadinessChecksView {
  @ApiProperty({ enum: ['ok', 'down'], example: 'ok' }) database!: 'ok' | 'down';
  @ApiProperty({ enum: ['ok', 'down'], example: 'ok', description: 'The message broker connection' })
  broker!: 'ok' | 'down';
}

export class ReadinessView {
  @ApiProperty({ enum: ['ready'], example: 'ready' }) status!: 'ready';
  @ApiProperty({ type: ReadinessChecksView }) checks!: ReadinessChecksView;
}

// Software stack ---------------------------------------------------------------------------------

export const STACK_REPO_ROLES = ['core', 'contracts', 'plugin', 'lab'] as const;

/** One repository of the software stack, from the stack file. */
export class StackRepoView {
  @ApiProperty({ example: 'svc-protein-function' }) name!: string;
  @ApiProperty({ example: 'lab/svc-protein-function', description: 'owner/name on the code host' })
  slug!: string;
  @ApiProperty({ enum: STACK_REPO_ROLES, example: 'core' }) role!: (typeof STACK_REPO_ROLES)[number];
  @ApiProperty({ example: 'Core service' }) role_label!: string;
  @ApiProperty({ example: 'active' }) status!: string;
  @ApiProperty({ example: 'GO term prediction service and API' }) summary!: string;
  @ApiPropertyOptional({ nullable: true, type: String, description: 'The summary in Spanish' })
  summary_es!: string | null;
  @ApiProperty({ example: 'https://github.com/lab/svc-protein-function' }) github_url!: string;
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    example: 'https://lab.github.io/svc-protein-function',
  })
  docs_url!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) package_url!: string | null;
}

export class StackView {
  @ApiProperty({ type: [StackRepoView] }) repos!: StackRepoView[];
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    example: '/v1/stack/thesis.pdf',
    description: 'Where to download the thesis, or null when the server has none',
  })
  thesis_pdf_url!: string | null;
}

/** An open pull request of a stack repository, as the code host lists it. */
export class PullRequestView {
  @ApiProperty({ example: 'lab/svc-protein-function' }) repo!: string;
  @ApiProperty({ example: 12 }) number!: number;
  @ApiProperty({ example: 'Faster embedding search' }) title!: string;
  @ApiProperty({ example: 'https://github.com/lab/svc-protein-function/pull/12' }) url!: string;
  @ApiProperty({ example: 'open' }) state!: string;
  @ApiProperty({ example: false }) draft!: boolean;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'ada' }) author!: string | null;
  @ApiProperty({ example: '2025-03-14T09:26:53Z', description: "The code host's timestamp, as given" })
  created_at!: string;
  @ApiProperty({ example: '2025-03-15T10:00:00Z', description: "The code host's timestamp, as given" })
  updated_at!: string;
  @ApiProperty({ type: [String], example: ['perf'] }) labels!: string[];
}

export class StackPullsView {
  @ApiProperty({ example: 1741944413.589, description: 'When the code host was queried (Unix seconds)' })
  fetched_at!: number;
  @ApiProperty({ example: false, description: 'Whether the answer comes from the 5-minute cache' })
  cached!: boolean;
  @ApiProperty({ example: 2 }) repos_queried!: number;
  @ApiProperty({ type: [PullRequestView] }) pulls!: PullRequestView[];
  @ApiPropertyOptional({
    nullable: true,
    type: Number,
    example: 4998,
    description: "The code host's remaining rate limit (lowest seen), null when it did not say",
  })
  rate_limit_remaining!: number | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { 'lab/gone': 'the code host answered 404' },
    description: 'Per repository slug, why its pulls could not be listed',
  })
  errors!: Record<string, string>;
}

// Plugins ----------------------------------------------------------------------------------------

export class PluginView {
  @ApiProperty({ example: 'kmer' }) name!: string;
  @ApiProperty({ example: 'KmerEmbeddingBackend', description: 'The implementing class' }) cls!: string;
  @ApiProperty({ example: '@svc/inference/kmer', description: 'The module or package that provides it' })
  module!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: { weights: false, default: true },
    description: 'Plugin-specific details',
  })
  extra!: Record<string, unknown>;
}

export class PluginListView {
  @ApiProperty({ enum: Object.values(PLUGIN_GROUPS), example: PLUGIN_GROUPS.embeddingBackends })
  group!: string;
  @ApiProperty({
    type: [PluginView],
    description: 'Built-in plugins first, then those installed packages declare',
  })
  plugins!: PluginView[];
}

// Workers ----------------------------------------------------------------------------------------

export class QueueStatsView {
  @ApiProperty({ example: 'svc.predictions' }) queue!: string;
  @ApiProperty({ example: 1, description: 'Consumers attached to the queue' }) consumers!: number;
  @ApiProperty({ example: 0, description: 'Messages waiting for a consumer' }) messages_ready!: number;
}

export class WorkersStatusView {
  @ApiProperty({ type: [QueueStatsView] }) queues!: QueueStatsView[];
}
