import { describe, expect, it } from 'vitest';
import { bodyShapeError } from '../src/body-shape';

const nested = (depth: number): unknown => {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i += 1) value = { a: value };
  return value;
};

describe('body shape budget', () => {
  it('accepts ordinary bodies, scalars and exactly the limits', () => {
    expect(bodyShapeError({ email: 'a@b.c', password: 'x', list: [1, 2, { x: null }] })).toBeNull();
    expect(bodyShapeError('text')).toBeNull();
    expect(bodyShapeError(null)).toBeNull();
    expect(bodyShapeError(nested(64))).toBeNull();
    expect(bodyShapeError(new Array(99_999).fill(0))).toBeNull();
  });

  it('refuses a body nested deeper than the limit (arrays and objects) with ErrBodyTooComplex', () => {
    const deep = bodyShapeError(nested(65));
    expect(deep?.code).toBe('ErrBodyTooComplex');
    expect(deep?.status).toBe(400);
    expect(deep?.metadata).toEqual({ maxDepth: 64, maxValues: 100_000 });
    // The finding's body: 4,500 levels of arrays inside a login object.
    const arrays = JSON.parse(`{"email":${'['.repeat(4500)}${']'.repeat(4500)}}`) as unknown;
    expect(bodyShapeError(arrays)?.code).toBe('ErrBodyTooComplex');
  });

  it('refuses a body with more values than the limit, even when flat', () => {
    expect(bodyShapeError(new Array(100_000).fill(0))?.code).toBe('ErrBodyTooComplex');
    const wide = Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`k${i}`, [i]]));
    expect(bodyShapeError(wide)?.code).toBe('ErrBodyTooComplex');
  });

  it('custom limits', () => {
    expect(bodyShapeError([[1]], { maxDepth: 1, maxValues: 10 })?.code).toBe('ErrBodyTooComplex');
    expect(bodyShapeError([[1]], { maxDepth: 2, maxValues: 10 })).toBeNull();
    expect(bodyShapeError([1, 2, 3], { maxDepth: 2, maxValues: 3 })?.code).toBe('ErrBodyTooComplex');
  });
});
