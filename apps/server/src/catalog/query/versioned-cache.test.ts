import { describe, expect, it } from 'vitest';
import { VersionedCache } from './versioned-cache.ts';

describe('VersionedCache', () => {
  const clock = () => {
    let now = 1_000;
    return { now: () => now, advance: (ms: number) => (now += ms) };
  };

  it('serves an answer while the catalog version it was made under is current', () => {
    const cache = new VersionedCache<string>({ maxEntries: 10 });
    cache.set('q', { catalog: 1, popularity: 1 }, 'answer');
    expect(cache.get('q', { catalog: 1, popularity: 1 })).toBe('answer');
    // Popularity is not its business: it was made without a maximum age for it.
    expect(cache.get('q', { catalog: 1, popularity: 9 })).toBe('answer');
    expect(cache.get('q', { catalog: 2, popularity: 1 })).toBeUndefined();
    // Unknown versions: nothing is served, and nothing kept.
    expect(cache.get('q', { catalog: undefined, popularity: 1 })).toBeUndefined();
    cache.set('u', { catalog: undefined, popularity: 1 }, 'lost');
    expect(cache.get('u', { catalog: 1, popularity: 1 })).toBeUndefined();
  });

  it('outlives a move of popularity by at most its maximum age', () => {
    const time = clock();
    const cache = new VersionedCache<string>({
      maxEntries: 10,
      popularityMaxAgeMs: 5_000,
      now: time.now,
    });
    cache.set('trending', { catalog: 1, popularity: 1 }, 'page');
    time.advance(60_000);
    // Nothing moved: served however old.
    expect(cache.get('trending', { catalog: 1, popularity: 1 })).toBe('page');
    cache.set('fresh', { catalog: 1, popularity: 1 }, 'new page');
    time.advance(4_999);
    expect(cache.get('fresh', { catalog: 1, popularity: 2 })).toBe('new page');
    expect(cache.get('trending', { catalog: 1, popularity: 2 })).toBeUndefined();
    time.advance(1);
    expect(cache.get('fresh', { catalog: 1, popularity: 2 })).toBeUndefined();
  });

  it('follows popularity at once with a maximum age of 0', () => {
    const cache = new VersionedCache<string>({ maxEntries: 10, popularityMaxAgeMs: 0 });
    cache.set('trending', { catalog: 1, popularity: 1 }, 'page');
    expect(cache.get('trending', { catalog: 1, popularity: 1 })).toBe('page');
    expect(cache.get('trending', { catalog: 1, popularity: 2 })).toBeUndefined();
  });

  it('drops the least recently used past its size', () => {
    const cache = new VersionedCache<string>({ maxEntries: 2 });
    const versions = { catalog: 1, popularity: 1 };
    cache.set('a', versions, 'A');
    cache.set('b', versions, 'B');
    expect(cache.get('a', versions)).toBe('A');
    cache.set('c', versions, 'C');
    expect(cache.get('b', versions)).toBeUndefined();
    expect(cache.get('a', versions)).toBe('A');
    expect(cache.get('c', versions)).toBe('C');
  });

  it('makes an answer once however many ask at the same moment, and keeps it', async () => {
    const cache = new VersionedCache<number>({ maxEntries: 10 });
    const versions = { catalog: 1, popularity: 1 };
    let made = 0;
    const make = async () => {
      made += 1;
      return made;
    };
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => cache.getOrMake('k', versions, make)),
    );
    expect(answers).toEqual([1, 1, 1, 1, 1]);
    expect(await cache.getOrMake('k', versions, make)).toBe(1);
    expect(await cache.getOrMake('k', { ...versions, catalog: 2 }, make)).toBe(2);
    expect(made).toBe(2);
  });
});
