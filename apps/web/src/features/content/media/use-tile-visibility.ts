import { createContext, startTransition, useContext, useEffect, useRef, useState } from 'react';
import type { RefObject } from 'react';
import type { TileObserver, TileVisibility } from './tile-observer.ts';

/** The grid's tile observer, for its tiles (null: no observer, every tile counts as on screen). */
export const TileObserverContext = createContext<TileObserver | null>(null);

const alwaysOnScreen: TileVisibility = { isVisible: true, isNear: true };

/**
 * Where the tile in `ref` is, from its grid's observer. Until the first observation the tile
 * assumes `initial` (the first screen's tiles: near, so their media starts with the page).
 */
export function useTileVisibility(
  ref: RefObject<Element | null>,
  initial: TileVisibility,
): TileVisibility {
  const observer = useContext(TileObserverContext);
  const [visibility, setVisibility] = useState(initial);
  // What the tile shows now: a renewed watch compares observations with it.
  const shown = useRef(visibility);
  useEffect(() => {
    const element = ref.current;
    if (!observer || !element) return;
    return observer.watch(element, shown.current, (next) => {
      shown.current = next;
      // A scroll (or the first observation) brings many tiles near at once, each mounting its
      // media: rendered as a transition, React splits that work instead of blocking input.
      startTransition(() => setVisibility(next));
    });
  }, [observer, ref]);
  return observer ? visibility : alwaysOnScreen;
}
