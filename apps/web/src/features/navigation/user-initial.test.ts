import { describe, expect, it } from 'vitest';
import { getUserInitial } from './user-initial.ts';

describe('getUserInitial', () => {
  it.each([
    ['Ada Lovelace', 'A'],
    ['  grace hopper', 'G'],
    ['émile', 'É'],
    ['Łukasz', 'Ł'],
    ['李小龍', '李'],
    ['7even', '7'],
  ])('%s → %s', (name, initial) => {
    expect(getUserInitial(name)).toBe(initial);
  });

  it.each(['', '   ', '🎉 Party', '@handle'])('%s → none (a person icon instead)', (name) => {
    expect(getUserInitial(name)).toBeNull();
  });
});
