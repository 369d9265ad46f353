import { describe, expect, it } from 'vitest';
import { getTileAspectRatio, layoutMasonry, selectAboveFoldOnPhones } from './tile-layout.ts';

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

describe('getTileAspectRatio', () => {
  it("reads the tile rendition's size, else the original's, else a square", () => {
    expect(getTileAspectRatio({ fixed_width: { width: '200', height: '100' } })).toBe(2);
    expect(getTileAspectRatio({ original: { width: 300, height: 600 } })).toBe(0.5);
    expect(getTileAspectRatio({ fixed_width: { width: '0', height: '' } })).toBe(1);
    expect(getTileAspectRatio(undefined)).toBe(1);
  });
});

describe('selectAboveFoldOnPhones', () => {
  const sized = (width: number, height: number) => ({ fixed_width: { width, height } });

  it("keeps the tiles that start on a phone's first screen, in the grid's two columns", () => {
    // Squares: two rows start within the grid's width (0 % and 50.75 %), the third at 101.5 %.
    const squares = Array.from({ length: 8 }, () => sized(200, 200));
    expect(selectAboveFoldOnPhones(squares, (images) => images)).toHaveLength(4);
    // Wide tiles are short: more of them start above the fold (at 0, 26.1, 52.3 and 78.4 %).
    const wide = Array.from({ length: 12 }, () => sized(200, 100));
    expect(selectAboveFoldOnPhones(wide, (images) => images)).toHaveLength(8);
  });

  it('follows the masonry: a tall tile leaves the other column to take the next ones', () => {
    const items = [sized(100, 300), sized(200, 200), sized(200, 200), sized(200, 200)];
    // The tall one fills column 0 to 147.75 %; the squares go to column 1 at 0, 50.75, 101.5 %.
    expect(selectAboveFoldOnPhones(items, (images) => images)).toEqual(items.slice(0, 3));
  });
});
