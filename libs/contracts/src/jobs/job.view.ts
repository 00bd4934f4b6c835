import { ApiProperty } from '@nestjs/swagger';
import { JOB_STATUSES, JobStatus } from '../job-status';
import { JOB_ERROR_CODES, JobErrorCode } from './job-error-codes';
import { ExpiresAtProperty, VisibilityName, VisibilityProperty } from '../ownership/ownership.properties';
import { IdProperty } from '../example-ids';

export class JobView {
  @IdProperty('job') id!: string;
  @ApiProperty({
    example: 'predict_go_terms',
    description: "An operation of the catalogue (`OperationName`), or a plugin's",
  })
  operation!: string;
  @ApiProperty() queue_name!: string;
  @ApiProperty({ enum: JOB_STATUSES }) status!: JobStatus;
  @ApiProperty({ type: 'object', additionalProperties: true }) payload!: Record<string, unknown>;
  @ApiProperty({ type: 'object', additionalProperties: true }) meta!: Record<string, unknown>;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true })
  result!: Record<string, unknown> | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) parent_job_id!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) started_at!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) finished_at!: string | null;
  @ApiProperty({ nullable: true, type: Number }) progress_current!: number | null;
  @ApiProperty({ nullable: true, type: Number }) progress_total!: number | null;
  @ApiProperty({
    nullable: true,
    type: String,
    // A nullable enum lists null among its values (OpenAPI 3.0), or validators refuse a null code.
    enum: [...Object.keys(JOB_ERROR_CODES), null],
    description: 'Why a FAILED job failed: one of the stable codes listed in docs/job-errors.md',
  })
  error_code!: JobErrorCode | null;
  @ApiProperty({ nullable: true, type: String }) error_message!: string | null;
  @ApiProperty({ nullable: true, type: String }) dedup_key!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) leased_until!: string | null;
  @ApiProperty({ nullable: true, type: String }) description!: string | null;
  @ApiProperty({ nullable: true, type: String }) findings!: string | null;
  @ApiProperty({ type: [String] }) tags!: string[];
  @ApiProperty({ description: 'How often the lease reaper handed the job back to its queue' })
  requeue_count!: number;
  @ApiProperty({
    format: 'uuid',
    nullable: true,
    type: String,
    description: 'The account the job works for',
  })
  owner_user_id!: string | null;
  @VisibilityProperty() visibility!: VisibilityName;
  @ExpiresAtProperty('job')
  expires_at!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'The role the job was submitted with' })
  submitted_role!: string | null;
  @ApiProperty({ enum: ['api', 'annotate', 'system'] }) submitted_via!: 'api' | 'annotate' | 'system';
}

export class QueuedJobView {
  @IdProperty('job') id!: string;
  @ApiProperty({ enum: ['queued'] }) status!: 'queued';
}

export class JobEventView {
  @ApiProperty({ example: 42 }) id!: number;
  @ApiProperty({ format: 'uuid' }) job_id!: string;
  @ApiProperty({ format: 'date-time' }) ts!: string;
  @ApiProperty() level!: string;
  @ApiProperty({ example: 'predict_go_terms.planned' }) event!: string;
  @ApiProperty({ nullable: true, type: String }) message!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true }) fields!: Record<string, unknown>;
}

export class JobCommentView {
  @ApiProperty({ example: 7 }) id!: number;
  @ApiProperty({ format: 'uuid' }) job_id!: string;
  @ApiProperty({
    nullable: true,
    type: String,
    description:
      'Username of the account that wrote the comment, recorded by the server; null when written without an account (the credential gate off)',
  })
  author!: string | null;
  @ApiProperty({ example: 'Rerun with the 2024 annotations' }) body!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class JobDeletionView {
  @IdProperty('job') id!: string;
  @ApiProperty() deleted!: boolean;
  @ApiProperty() events_deleted!: number;
  @ApiProperty() comments_deleted!: number;
  @ApiProperty() children_deleted!: number;
}
