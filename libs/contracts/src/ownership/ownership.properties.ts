import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** Who may read a row (docs/security.md, "Owners and visibility"). */
export const VISIBILITIES = ['owner', 'unlisted', 'public'] as const;
export type VisibilityName = (typeof VISIBILITIES)[number];

/** A view's `visibility`. */
export function VisibilityProperty(example?: VisibilityName): PropertyDecorator {
  return ApiProperty({ enum: VISIBILITIES, ...(example !== undefined ? { example } : {}) });
}

/** A view's `expires_at`: when the retention purge removes the row if it is unlisted. */
export function ExpiresAtProperty(what: string, options: { optional?: boolean } = {}): PropertyDecorator {
  const property = options.optional === true ? ApiPropertyOptional : ApiProperty;
  return property({
    format: 'date-time',
    nullable: true,
    type: String,
    description: `When the retention purge removes an unlisted ${what}`,
  });
}
