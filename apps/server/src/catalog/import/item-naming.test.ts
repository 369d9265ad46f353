import { describe, expect, it } from 'vitest';
import { buildDefaultAltText } from '../alt-text.ts';
import { buildSlug, generateItemId, normaliseTags, ratingRanks } from './item-naming.ts';

describe('item naming', () => {
  it('makes 18-character base62 ids, different every time', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => generateItemId()));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^[0-9A-Za-z]{18}$/);
  });

  it('builds GIPHY slugs: lower-case ASCII title words, then the id', () => {
    expect(buildSlug('Rolling on the floor laughing', 'abc123XYZ')).toBe(
      'rolling-on-the-floor-laughing-abc123XYZ',
    );
    expect(buildSlug('Crème Brûlée — “yum”!', 'ID1234')).toBe('creme-brulee-yum-ID1234');
    expect(buildSlug("Don't stop", 'ID1234')).toBe('dont-stop-ID1234');
    expect(buildSlug('😀🎉', 'ID1234')).toBe('ID1234');
    expect(buildSlug('word '.repeat(50), 'ID1234').length).toBeLessThanOrEqual(70);
  });

  it('normalises tags: lower case, trimmed, single-spaced, no duplicates or empties', () => {
    expect(normaliseTags(['Happy', ' happy ', 'HAPPY  Dance', '', '  ', 'lol'])).toEqual([
      'happy',
      'happy dance',
      'lol',
    ]);
  });

  it('ranks ratings g < pg < pg-13 < r', () => {
    expect(ratingRanks).toEqual({ g: 0, pg: 1, 'pg-13': 2, r: 3 });
  });

  it('writes a default alt text sentence from the title and type', () => {
    expect(buildDefaultAltText('Ghost', 'sticker', true)).toBe('Animated sticker: Ghost.');
    expect(buildDefaultAltText('Dancing cat!', 'gif', true)).toBe('Animated GIF: Dancing cat!');
    expect(buildDefaultAltText('Spinning...', 'gif', true)).toBe('Animated GIF: Spinning...');
    expect(buildDefaultAltText('Sunset', 'gif', false)).toBe('Image: Sunset.');
    expect(buildDefaultAltText('Hello world', 'text', true)).toBe(
      'Animated text that reads “Hello world”.',
    );
  });
});
