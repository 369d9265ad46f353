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
 * items never moves those already placed.
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

/** Items of all pages in order, each id once (GIPHY can repeat an item across pages). */
export function uniqueById<T extends { id: string | number }>(items: readonly T[]): T[] {
  const seen = new Set<string>();
  const unique: T[] = [];
  for (const item of items) {
    const id = String(item.id);
    if (seen.has(id)) continue;
    seen.add(id);
    unique.push(item);
  }
  return unique;
}
