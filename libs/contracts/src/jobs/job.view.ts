import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { JOB_STATUSES, JobStatus } from '../job-status';

export class JobView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() operation!: string;
  @ApiProperty() queue_name!: string;
  @ApiProperty({ enum: JOB_STATUSES }) status!: JobStatus;
  @ApiProperty({ type: 'object', additionalProperties: true }) payload!: Record<string, unknown>;
  @ApiProperty({ type: 'object', additionalProperties: true }) meta!: Record<string, unknown>;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, nullable: true })
  result!: Record<string, unknown> | null;
  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String }) parent_job_id!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiPropertyOptional({ format: 'date-time', nullable: true, type: String }) started_at!: string | null;
  @ApiPropertyOptional({ format: 'date-time', nullable: true, type: String }) finished_at!: string | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) progress_current!: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) progress_total!: number | null;
  @ApiPropertyOptional({ nullable: true, type: String }) error_code!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) error_message!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) dedup_key!: string | null;
  @ApiPropertyOptional({ format: 'date-time', nullable: true, type: String }) leased_until!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) description!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) findings!: string | null;
  @ApiProperty({ type: [String] }) tags!: string[];
}

export class QueuedJobView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: ['queued'] }) status!: 'queued';
}

export class JobEventView {
  @ApiProperty() id!: number;
  @ApiProperty({ format: 'uuid' }) job_id!: string;
  @ApiProperty({ format: 'date-time' }) ts!: string;
  @ApiProperty() level!: string;
  @ApiProperty() event!: string;
  @ApiPropertyOptional({ nullable: true, type: String }) message!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true }) fields!: Record<string, unknown>;
}

export class JobCommentView {
  @ApiProperty() id!: number;
  @ApiProperty({ format: 'uuid' }) job_id!: string;
  @ApiPropertyOptional({ nullable: true, type: String }) author!: string | null;
  @ApiProperty() body!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class JobDeletionView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() deleted!: boolean;
  @ApiProperty() events_deleted!: number;
  @ApiProperty() comments_deleted!: number;
  @ApiProperty() children_deleted!: number;
}
