import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { parseIntegerParam } from './transforms';

/** A list's `limit` query parameter: an optional integer from 1 to `max`, `default` when absent. */
export function LimitParam(options: { default: number; max: number }): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: Number, default: options.default, minimum: 1, maximum: options.max }),
    IsOptional(),
    Transform(parseIntegerParam),
    IsInt(),
    Min(1),
    Max(options.max),
  );
}

/** A list's `offset` query parameter: an optional integer from 0, 0 when absent. */
export function OffsetParam(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: Number, default: 0, minimum: 0 }),
    IsOptional(),
    Transform(parseIntegerParam),
    IsInt(),
    Min(0),
  );
}
