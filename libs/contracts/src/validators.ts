import { IsUUID } from 'class-validator';

/** A UUID field whose 422 message is `<field> must be a valid UUID` (the specification's wording). */
export const IsValidUuid = (): PropertyDecorator =>
  IsUUID(undefined, { message: '$property must be a valid UUID' });
