import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional } from 'class-validator';

/** Payload of `purge_expired_results`: the retention purge of unlisted one-click results. */
export class PurgeExpiredResultsPayload {
  @ApiPropertyOptional({ default: false, description: 'Count what has expired without removing it' })
  @IsOptional()
  @IsBoolean()
  dry_run?: boolean;
}
