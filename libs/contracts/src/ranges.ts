import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, TransformFnParams } from 'class-transformer';
import { IsInt, IsNumber, IsOptional, Max, Min } from 'class-validator';
import { parseIntegerParam, parseNumberParam } from './transforms';

/**
 * A numeric field's range, stated once: the validators refuse a value outside it with a 422 and
 * the OpenAPI document gives it as `minimum`/`maximum`, so a generated client knows the same bounds.
 */
export interface Range {
  min: number;
  max?: number;
  default?: number;
  description?: string;
}

type NumberKind = 'integer' | 'number';

function schema(kind: NumberKind, range: Range): Record<string, unknown> {
  return {
    type: kind,
    minimum: range.min,
    ...(range.max === undefined ? {} : { maximum: range.max }),
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

/** A required integer body field within `range`. */
export function IntegerField(range: Range): PropertyDecorator {
  return applyDecorators(ApiProperty(schema('integer', range)), ...checks('integer', range));
}

/** An optional integer body field within `range`. */
export function OptionalInteger(range: Range): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional(schema('integer', range)),
    IsOptional(),
    ...checks('integer', range),
  );
}

/** An optional number body field within `range`; NaN and infinities are refused. */
export function OptionalNumber(range: Range): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional(schema('number', range)),
    IsOptional(),
    ...checks('number', range),
  );
}

/** An optional query parameter within `range`: query strings arrive as text, `parse` reads it. */
function queryParam(
  kind: NumberKind,
  parse: (params: TransformFnParams) => unknown,
  range: Range,
): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional(schema(kind, range)),
    IsOptional(),
    Transform(parse),
    ...checks(kind, range),
  );
}

/** An optional integer query parameter within `range`. */
export function IntegerParam(range: Range): PropertyDecorator {
  return queryParam('integer', parseIntegerParam, range);
}

/** An optional number query parameter within `range`. */
export function NumberParam(range: Range): PropertyDecorator {
  return queryParam('number', parseNumberParam, range);
}

/** A list's `limit` query parameter: an optional integer from 1 to `max`, `default` when absent. */
export function LimitParam(options: { default: number; max: number }): PropertyDecorator {
  return IntegerParam({ min: 1, ...options });
}

/** A list's `offset` query parameter: an optional integer from 0, 0 when absent. */
export function OffsetParam(): PropertyDecorator {
  return IntegerParam({ min: 0, default: 0 });
}
