import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import {
  IntegerField,
  IntegerParam,
  LimitParam,
  NumberParam,
  OffsetParam,
  OptionalInteger,
  OptionalNumber,
} from './ranges';

class Body {
  @IntegerField({ min: 1, max: 100 }) k!: number;
  @OptionalInteger({ min: 0, max: 10, default: 3, description: 'count' }) count?: number;
  @OptionalNumber({ min: 0.5, max: 2 }) ratio?: number;
  @OptionalInteger({ min: 0 }) rows?: number;
  @OptionalInteger({ min: 0, nullable: true, default: null }) cap?: number | null;
}

class Query {
  @IntegerParam({ min: 0, max: 50, default: 3 }) depth?: number;
  @NumberParam({ min: 0, max: 1 }) score?: number;
  @LimitParam({ default: 50, max: 500 }) limit?: number;
  @OffsetParam() offset?: number;
}

function failures(type: new () => object, plain: Record<string, unknown>): string[] {
  return validateSync(plainToInstance(type, plain)).map((error) => error.property);
}

/** Where @nestjs/swagger keeps a property's schema (its package exports no name for the key). */
const SWAGGER_PROPERTY = 'swagger/apiModelProperties';

function documented(type: new () => object, property: string): Record<string, unknown> {
  return Reflect.getMetadata(SWAGGER_PROPERTY, type.prototype, property) as Record<string, unknown>;
}

describe('numeric ranges', () => {
  it.each([
    [{ k: 1 }, []],
    [{ k: 100, count: 10, ratio: 2, rows: 0 }, []],
    [{ k: 0.5, count: 0, ratio: 0.5 }, ['k']],
    [{ k: 101 }, ['k']],
    [{}, ['k']],
    [{ k: '5' }, ['k']],
    [{ k: 5, count: 11 }, ['count']],
    [{ k: 5, count: 1.5 }, ['count']],
    [{ k: 5, ratio: 0.4 }, ['ratio']],
    [{ k: 5, ratio: 2.01 }, ['ratio']],
    [{ k: 5, rows: -1 }, ['rows']],
    [{ k: 5, rows: 1e12 }, []],
    [{ k: 5, cap: null }, []],
    [{ k: 5, cap: -1 }, ['cap']],
    [{ k: 5, cap: 'none' }, ['cap']],
  ])('body %p refuses %p', (plain, refused) => {
    expect(failures(Body, plain)).toEqual(refused);
  });

  it.each([
    [{ depth: '0', score: '0.25', limit: '500', offset: '0' }, []],
    [{ depth: '51' }, ['depth']],
    [{ depth: '-1' }, ['depth']],
    [{ depth: 'two' }, ['depth']],
    [{ score: '1.5' }, ['score']],
    [{ score: 'NaN' }, ['score']],
    [{ score: 'Infinity' }, ['score']],
    [{ limit: '0' }, ['limit']],
    [{ limit: '501' }, ['limit']],
    [{ limit: '99999999999999999999' }, ['limit']],
    [{ offset: '-1' }, ['offset']],
  ])('query %p refuses %p', (plain, refused) => {
    expect(failures(Query, plain)).toEqual(refused);
  });

  it('query parameters arrive as numbers', () => {
    const query = plainToInstance(Query, { depth: '7', score: '0.5' });
    expect(query).toMatchObject({ depth: 7, score: 0.5 });
  });

  it('documents the range it checks', () => {
    expect(documented(Body, 'k')).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
    expect(documented(Body, 'k').required).not.toBe(false);
    expect(documented(Body, 'count')).toMatchObject({
      type: 'integer',
      minimum: 0,
      maximum: 10,
      default: 3,
      description: 'count',
      required: false,
    });
    expect(documented(Body, 'ratio')).toMatchObject({ type: 'number', minimum: 0.5, maximum: 2 });
    expect(documented(Body, 'rows')).not.toHaveProperty('maximum');
    expect(documented(Body, 'rows')).not.toHaveProperty('nullable');
    expect(documented(Body, 'cap')).toMatchObject({
      type: 'integer',
      minimum: 0,
      nullable: true,
      default: null,
    });
    expect(documented(Query, 'score')).toMatchObject({ type: 'number', minimum: 0, maximum: 1 });
    expect(documented(Query, 'limit')).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 500,
      default: 50,
    });
    expect(documented(Query, 'offset')).toMatchObject({ type: 'integer', minimum: 0, default: 0 });
  });
});
