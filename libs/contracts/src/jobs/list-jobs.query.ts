import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsString } from 'class-validator';
import { IsTimestamp, IsValidUuid } from '../validators';
import { JOB_STATUSES, JobStatus } from '../job-status';
import { parseBooleanParam, upperCaseParam } from '../transforms';
import { OPERATION_NAMES } from '../operations/catalog';
import { LimitParam } from '../ranges';

export const JOB_LIST_DEFAULT_LIMIT = 50;
export const JOB_LIST_MAX_LIMIT = 500;

export class ListJobsQuery {
  @ApiPropertyOptional({ enum: JOB_STATUSES, description: 'Any case (`queued` or `QUEUED`)' })
  @IsOptional()
  @Transform(upperCaseParam)
  @IsIn(JOB_STATUSES)
  status?: JobStatus;

  @ApiPropertyOptional({ enum: OPERATION_NAMES, enumName: 'OperationName' })
  @IsOptional()
  @IsString()
  operation?: string;

  @ApiPropertyOptional({ type: Boolean, default: false })
  @IsOptional()
  @Transform(parseBooleanParam)
  @IsBoolean()
  include_children?: boolean;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsValidUuid()
  parent_job_id?: string;

  @ApiPropertyOptional({ type: Boolean, default: false, description: "Only the caller's own jobs" })
  @IsOptional()
  @Transform(parseBooleanParam)
  @IsBoolean()
  mine?: boolean;

  @LimitParam({ default: JOB_LIST_DEFAULT_LIMIT, max: JOB_LIST_MAX_LIMIT })
  limit?: number;

  @ApiPropertyOptional({ description: 'Only rows strictly older than this created_at', format: 'date-time' })
  @IsOptional()
  @IsTimestamp()
  after?: string;
}

export const JOB_EVENTS_DEFAULT_LIMIT = 200;
export const JOB_EVENTS_MAX_LIMIT = 2000;
export const JOB_COMMENTS_MAX_LIMIT = 2000;

export class ListJobEventsQuery {
  @LimitParam({ default: JOB_EVENTS_DEFAULT_LIMIT, max: JOB_EVENTS_MAX_LIMIT })
  limit?: number;

  @ApiPropertyOptional({ format: 'date-time', description: 'Only events strictly older than this ts' })
  @IsOptional()
  @IsTimestamp()
  after?: string;
}

export class ListJobCommentsQuery {
  @LimitParam({ default: JOB_COMMENTS_MAX_LIMIT, max: JOB_COMMENTS_MAX_LIMIT })
  limit?: number;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Only comments strictly newer than this created_at',
  })
  @IsOptional()
  @IsTimestamp()
  after?: string;
}
