import { describe, expect, it } from 'vitest';
import { uniqueById } from './unique-by-id.ts';

describe('uniqueById', () => {
  it('keeps the first of each id in order', () => {
    expect(uniqueById([{ id: 'a' }, { id: 'b' }, { id: 'a' }, { id: 1 }, { id: '1' }])).toEqual([
      { id: 'a' },
      { id: 'b' },
      { id: 1 },
    ]);
  });
});
