import { isUUID } from 'class-validator';
import { EXAMPLE_IDS, IdProperty } from './example-ids';

/** Where @nestjs/swagger keeps a property's schema (its package exports no name for the key). */
const SWAGGER_PROPERTY = 'swagger/apiModelProperties';

class Example {
  @IdProperty('ontologySnapshot') ontology_snapshot_id!: string;
  @IdProperty('user', { description: 'The owner' }) user_id!: string;
}

describe('example ids', () => {
  it('are UUIDs, one distinct id a kind', () => {
    const ids = Object.values(EXAMPLE_IDS);
    expect(ids.filter((id) => !isUUID(id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("IdProperty documents a required UUID with its kind's example and an optional description", () => {
    const schema = (property: string): unknown =>
      Reflect.getMetadata(SWAGGER_PROPERTY, Example.prototype, property);
    expect(schema('ontology_snapshot_id')).toMatchObject({
      format: 'uuid',
      example: EXAMPLE_IDS.ontologySnapshot,
    });
    expect(schema('ontology_snapshot_id')).not.toHaveProperty('description');
    expect(schema('user_id')).toMatchObject({
      format: 'uuid',
      example: EXAMPLE_IDS.user,
      description: 'The owner',
    });
  });
});
