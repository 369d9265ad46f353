/** Where a tile is relative to the screen. */
export interface TileVisibility {
  /** On screen: its animation plays. */
  isVisible: boolean;
  /** Within `nearMargin` of the screen: it keeps its media (loaded, decoders held). */
  isNear: boolean;
}

export interface TileObserver {
  /**
   * Reports `element`'s visibility whenever it differs from what was last reported (at first,
   * `assumed`: what the tile shows before the first observation); returns the function that
   * stops watching.
   */
  watch: (
    element: Element,
    assumed: TileVisibility,
    onChange: (visibility: TileVisibility) => void,
  ) => () => void;
  disconnect: () => void;
}

/**
 * How far above and below the screen a tile keeps its media: a screen and a half (percent of
 * the viewport's height), so a flick of the scroll finds tiles ready, while tiles further away
 * give their decoders and memory back (browsers cap the media players of a page).
 */
export const nearMargin = '150% 0px';

/**
 * One observer for all the tiles of a grid, owned by the grid (docs/web.md, "Media"). An
 * IntersectionObserver has one margin, and a tile needs two answers (on screen, near it), so
 * there are two underneath, each watching every tile. Null where IntersectionObserver is
 * missing: tiles then behave as always on screen.
 */
export function createTileObserver(): TileObserver | null {
  if (typeof IntersectionObserver === 'undefined') return null;
  const watched = new Map<
    Element,
    { visibility: TileVisibility; onChange: (visibility: TileVisibility) => void }
  >();
  const update = (entries: IntersectionObserverEntry[], key: keyof TileVisibility) => {
    for (const entry of entries) {
      const tile = watched.get(entry.target);
      if (!tile || tile.visibility[key] === entry.isIntersecting) continue;
      tile.visibility = { ...tile.visibility, [key]: entry.isIntersecting };
      tile.onChange(tile.visibility);
    }
  };
  const onScreen = new IntersectionObserver((entries) => update(entries, 'isVisible'));
  const nearScreen = new IntersectionObserver((entries) => update(entries, 'isNear'), {
    rootMargin: nearMargin,
  });
  return {
    watch(element, assumed, onChange) {
      watched.set(element, { visibility: assumed, onChange });
      onScreen.observe(element);
      nearScreen.observe(element);
      return () => {
        watched.delete(element);
        onScreen.unobserve(element);
        nearScreen.unobserve(element);
      };
    },
    disconnect() {
      watched.clear();
      onScreen.disconnect();
      nearScreen.disconnect();
    },
  };
}
