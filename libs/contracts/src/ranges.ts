import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsNumber, IsOptional, Max, Min } from 'class-validator';
import { parseIntegerParam, parseNumberParam } from './transforms';

/**
 * A numeric field's range, stated once: the validators refuse a value outside it with a 422 and
 * the OpenAPI document gives it as `minimum`/`maximum`, so a generated client knows the same bounds.
 */
export interface Range {
  min: number;
  max?: number;
  default?: number | null;
  description?: string;
  /** Null is a value of its own (documented as nullable); optional fields only. */
  nullable?: boolean;
}

type NumberKind = 'integer' | 'number';

function schema(kind: NumberKind, range: Range): Record<string, unknown> {
  return {
    type: kind,
    minimum: range.min,
    ...(range.max === undefined ? {} : { maximum: range.max }),
    ...(range.nullable === true ? { nullable: true } : {}),
    ...(range.default === undefined ? {} : { default: range.default }),
    ...(range.description === undefined ? {} : { description: range.description }),
  };
}

function checks(kind: NumberKind, range: Range): PropertyDecorator[] {
  return [
    kind === 'integer' ? IsInt() : IsNumber({ allowNaN: false, allowInfinity: false }),
    Min(range.min),
    ...(range.max === undefined ? [] : [Max(range.max)]),
  ];
}

/** An optional field within `range`; absent (or null) skips the checks. */
function optional(kind: NumberKind, range: Range): PropertyDecorator {
  return applyDecorators(ApiPropertyOptional(schema(kind, range)), IsOptional(), ...checks(kind, range));
}

/** A required integer body field within `range`. */
export function IntegerField(range: Range): PropertyDecorator {
  return applyDecorators(ApiProperty(schema('integer', range)), ...checks('integer', range));
}

/** An optional integer body field within `range`. */
export function OptionalInteger(range: Range): PropertyDecorator {
  return optional('integer', range);
}

/** An optional number body field within `range`; NaN and infinities are refused. */
export function OptionalNumber(range: Range): PropertyDecorator {
  return optional('number', range);
}

/** An optional integer query parameter within `range` (query strings arrive as text). */
export function IntegerParam(range: Range): PropertyDecorator {
  return applyDecorators(Transform(parseIntegerParam), optional('integer', range));
}

/** An optional number query parameter within `range`. */
export function NumberParam(range: Range): PropertyDecorator {
  return applyDecorators(Transform(parseNumberParam), optional('number', range));
}

/** A list's `limit` query parameter: an optional integer from 1 to `max`, `default` when absent. */
export function LimitParam(options: { default: number; max: number }): PropertyDecorator {
  return IntegerParam({ min: 1, ...options });
}

/** A list's `offset` query parameter: an optional integer from 0, 0 when absent. */
export function OffsetParam(): PropertyDecorator {
  return IntegerParam({ min: 0, default: 0 });
}
