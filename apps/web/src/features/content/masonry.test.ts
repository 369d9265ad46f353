import { describe, expect, it } from 'vitest';
import { layoutMasonry, uniqueById } from './masonry.ts';

const ratio = (item: { ratio: number }) => item.ratio;

describe('layoutMasonry', () => {
  it('puts each item into the shortest column, in order', () => {
    // A tall first item makes column 0 long, so the next four (wide) go to column 1; on a
    // tie the leftmost column wins.
    const items = [
      { ratio: 0.5 },
      { ratio: 2 },
      { ratio: 2 },
      { ratio: 2 },
      { ratio: 2 },
      { ratio: 1 },
    ];
    const { placements } = layoutMasonry(items, 2, ratio, 0);
    expect(placements.map((placement) => placement.column)).toEqual([0, 1, 1, 1, 1, 0]);
    expect(placements[2]!.top).toBeCloseTo(placements[1]!.height);
  });

  it('never moves placed items when more are appended', () => {
    const first = Array.from({ length: 25 }, (_, i) => ({ ratio: 0.5 + (i % 5) * 0.3 }));
    const more = Array.from({ length: 25 }, (_, i) => ({ ratio: 0.7 + (i % 3) * 0.4 }));
    const before = layoutMasonry(first, 4, ratio).placements;
    const after = layoutMasonry([...first, ...more], 4, ratio).placements.slice(0, 25);
    expect(after).toEqual(before);
  });

  it('fills the width in percent, and the height is the tallest column', () => {
    const layout = layoutMasonry([{ ratio: 1 }, { ratio: 1 }, { ratio: 1 }], 3, ratio, 1.5);
    const last = layout.placements[2]!;
    expect(last.left + last.width).toBeCloseTo(100);
    expect(layout.height).toBeCloseTo(last.width);
  });

  it('treats a missing or silly ratio as a square', () => {
    const layout = layoutMasonry([{ ratio: 0 }, { ratio: Number.NaN }], 1, ratio, 0);
    expect(layout.placements.map((placement) => placement.height)).toEqual([100, 100]);
    expect(layoutMasonry([], 4, ratio).height).toBe(0);
  });
});

describe('uniqueById', () => {
  it('keeps the first of each id in order', () => {
    expect(uniqueById([{ id: 'a' }, { id: 'b' }, { id: 'a' }, { id: 1 }, { id: '1' }])).toEqual([
      { id: 'a' },
      { id: 'b' },
      { id: 1 },
    ]);
  });
});
