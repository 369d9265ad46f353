import { tileRenditions } from './first-screen.ts';

export interface MasonryPlacement<T> {
  item: T;
  /** Position in the full list (DOM order, so Tab follows the list). */
  index: number;
  column: number;
  /** Left edge, width and top edge, all in percent of the grid's width. */
  left: number;
  width: number;
  top: number;
  height: number;
}

export interface MasonryLayout<T> {
  placements: MasonryPlacement<T>[];
  /** The tallest column, in percent of the grid's width. */
  height: number;
}

/**
 * Shortest-column masonry, as GIPHY's own grid does it: each item, in order, goes into the
 * column whose running height is smallest, using the item's known aspect ratio, so nothing
 * moves when images load. Every length is a percentage of the grid's width, which CSS can
 * apply directly (percentage margins and paddings refer to the width), so the layout needs
 * no measuring and scales with the window. Placement is greedy in list order: appending
 * items never moves those already placed. The server lays out the first page of `/` with it
 * too, to know which tiles a phone shows first (docs/web.md, "First page").
 */
export function layoutMasonry<T>(
  items: readonly T[],
  columnCount: number,
  getAspectRatio: (item: T) => number,
  gapPercent = 1.5,
): MasonryLayout<T> {
  const count = Math.max(1, Math.floor(columnCount));
  const width = (100 - gapPercent * (count - 1)) / count;
  const heights = new Array<number>(count).fill(0);
  const placements = items.map((item, index) => {
    let column = 0;
    for (let candidate = 1; candidate < count; candidate++) {
      if ((heights[candidate] ?? 0) < (heights[column] ?? 0)) column = candidate;
    }
    const ratio = getAspectRatio(item);
    const height = width / (ratio > 0 && Number.isFinite(ratio) ? ratio : 1);
    const top = heights[column] ?? 0;
    heights[column] = top + height + gapPercent;
    return { item, index, column, left: column * (width + gapPercent), width, top, height };
  });
  const tallest = Math.max(0, ...heights);
  return { placements, height: Math.max(0, tallest - (items.length > 0 ? gapPercent : 0)) };
}

/** The home grid's columns on small, medium (Tailwind md) and large (lg) screens. */
export const homeGridColumns = { small: 2, medium: 3, large: 4 } as const;

/** Screens from Tailwind's `md` (48rem) up, where grids show more than their small column count. */
export const mediumScreenQuery = '(min-width: 48rem)';

/** Screens below `md`, a phone's: the server preloads what their first tiles paint first. */
export const smallScreenQuery = `not all and ${mediumScreenQuery}`;

/**
 * Tiles starting within this depth (percent of the grid's width) are on the first screen: on a
 * phone, the two columns' first screen, where Lighthouse finds the largest paint. They load at
 * once and first; the server preloads what they paint first.
 */
export const aboveFoldPercent = 100;

type SizedRendition = { width?: unknown; height?: unknown } | undefined;

/** Width over height of a tile's rendition (contracts' `tileRenditions`); square when unknown. */
export function getTileAspectRatio(
  images: Partial<Record<string, SizedRendition>> | undefined,
): number {
  for (const name of tileRenditions.animated) {
    const width = Number(images?.[name]?.width);
    const height = Number(images?.[name]?.height);
    if (width > 0 && height > 0) return width / height;
  }
  return 1;
}

/**
 * The items of a home page a phone shows on its first screen: those the home grid's two
 * columns start above the fold (the web marks the same tiles `isAboveFold`).
 */
export function selectAboveFoldOnPhones<T>(
  items: readonly T[],
  getImages: (item: T) => Partial<Record<string, SizedRendition>> | undefined,
): T[] {
  const layout = layoutMasonry(items, homeGridColumns.small, (item) =>
    getTileAspectRatio(getImages(item)),
  );
  return layout.placements
    .filter((placement) => placement.top < aboveFoldPercent)
    .map((placement) => placement.item);
}
