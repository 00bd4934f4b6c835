import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional } from 'class-validator';
import { parseBooleanParam } from '../transforms';

/** The `mine` filter every list of owned rows accepts (query sets, prediction sets, results, datasets, runs). */
export class MineQuery {
  @ApiPropertyOptional({
    type: Boolean,
    default: false,
    description: "Only the caller's own rows (the caller's history); a guest owns none",
  })
  @IsOptional()
  @Transform(parseBooleanParam)
  @IsBoolean()
  mine?: boolean;
}
