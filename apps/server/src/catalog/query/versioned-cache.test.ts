import { describe, expect, it } from 'vitest';
import { ItemChanges } from './item-changes.ts';
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

describe('VersionedCache and item changes', () => {
  const versions = (itemChanges: ItemChanges) => ({
    catalog: 1,
    popularity: 1,
    itemChanges: itemChanges.sequence,
  });

  it('drops the answers holding an item whose text changed, and only those', () => {
    const itemChanges = new ItemChanges();
    const pages = new VersionedCache<string[]>({
      maxEntries: 10,
      itemChanges,
      itemIdsOf: (page) => page,
    });
    pages.set('first', versions(itemChanges), ['a', 'b']);
    pages.set('second', versions(itemChanges), ['c']);
    itemChanges.announce({ itemIds: ['b'] });
    expect(pages.get('first', versions(itemChanges))).toBeUndefined();
    expect(pages.get('second', versions(itemChanges))).toEqual(['c']);
    // Rankings only (the related lists rebuilt): no page shows a changed item.
    itemChanges.announce({ itemIds: [] });
    expect(pages.get('second', versions(itemChanges))).toEqual(['c']);
    itemChanges.announce('everything');
    expect(pages.get('second', versions(itemChanges))).toBeUndefined();
  });

  it('empties a cache of rankings on any change: an edited title may enter or leave any', () => {
    const itemChanges = new ItemChanges();
    const rankings = new VersionedCache<string[]>({ maxEntries: 10, itemChanges });
    rankings.set('cat', versions(itemChanges), ['a']);
    itemChanges.announce({ itemIds: [] });
    expect(rankings.get('cat', versions(itemChanges))).toBeUndefined();
  });

  it('does not keep an answer made before a change that touches it', async () => {
    const itemChanges = new ItemChanges();
    const pages = new VersionedCache<string[]>({
      maxEntries: 10,
      itemChanges,
      itemIdsOf: (page) => page,
    });
    const before = versions(itemChanges);
    let finish = (_page: string[]) => {};
    const making = pages.getOrMake(
      'page',
      before,
      () => new Promise((resolve) => (finish = resolve)),
    );
    // The edit is heard while the page is being made from the rows read before it.
    itemChanges.announce({ itemIds: ['a'] });
    // A request after the change does not share the answer begun before it.
    const after = pages.getOrMake('page', versions(itemChanges), () => Promise.resolve(['a*']));
    finish(['a', 'b']);
    expect(await making).toEqual(['a', 'b']);
    expect(await after).toEqual(['a*']);
    expect(pages.get('page', versions(itemChanges))).toEqual(['a*']);

    // One that does not hold the item is kept.
    pages.set('other', before, ['c']);
    expect(pages.get('other', versions(itemChanges))).toEqual(['c']);
    // Past what is remembered, nothing made before is kept.
    for (let index = 0; index < 300; index += 1) itemChanges.announce({ itemIds: ['z'] });
    pages.set('old', before, ['c']);
    expect(pages.get('old', versions(itemChanges))).toBeUndefined();
  });

  it('keeps rankings without a changed item for the bound after it, from the change', () => {
    let now = 0;
    const itemChanges = new ItemChanges(() => now);
    const rankings = new VersionedCache<{ rows: string[]; itemChanges?: number }>({
      maxEntries: 10,
      itemChanges,
      itemIdsOf: (ranking) => ranking.rows,
      unheldMaxAgeMs: 1_000,
      itemChangesOf: (ranking) => ranking.itemChanges,
    });
    const before = versions(itemChanges);
    rankings.set('cat', before, { rows: ['a'] });
    rankings.set('dog', before, { rows: ['b'] });
    now = 100;
    itemChanges.announce({ itemIds: ['a'] });
    expect(rankings.get('cat', versions(itemChanges))).toBeUndefined();
    expect(rankings.get('dog', versions(itemChanges))?.rows).toEqual(['b']);
    // Made before the change, kept after it: no longer than the kept ones.
    now = 600;
    rankings.set('owl', before, { rows: ['c'] });
    // A page made now of a ranking read before the change: no longer either.
    rankings.set('page', versions(itemChanges), { rows: ['d'], itemChanges: before.itemChanges });
    // A later change does not lengthen it.
    itemChanges.announce({ itemIds: ['z'] });
    now = 1_099;
    for (const key of ['dog', 'owl', 'page']) {
      expect(rankings.get(key, versions(itemChanges)), key).toBeDefined();
    }
    now = 1_100;
    for (const key of ['dog', 'owl', 'page']) {
      expect(rankings.get(key, versions(itemChanges)), key).toBeUndefined();
    }
    // Made after the changes: kept until the bound after the next one.
    rankings.set('eel', versions(itemChanges), { rows: ['e'] });
    now = 100_000;
    expect(rankings.get('eel', versions(itemChanges))?.rows).toEqual(['e']);
    // A change naming no item (the related lists rebuilt) empties it.
    itemChanges.announce({ itemIds: [] });
    expect(rankings.get('eel', versions(itemChanges))).toBeUndefined();
  });
});
