import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigationType } from 'react-router';

/** Scroll positions by history entry (location key), for this tab's lifetime. */
const positions = new Map<string, number>();
let currentKey: string | undefined;

function rememberPosition() {
  if (currentKey) positions.set(currentKey, window.scrollY);
}

/**
 * React Router's <ScrollRestoration> needs a data router. This one: a new address (a link,
 * a redirect) starts at the top; back and forward return to where that entry was left.
 * A change of the query alone (a filter, a category's subcategory) keeps the position.
 * Positions live in memory only: a reload starts at the top.
 */
export function ScrollRestoration() {
  const { key, pathname } = useLocation();
  const navigationType = useNavigationType();
  const previousPathname = useRef(pathname);

  useEffect(() => {
    // The browser would restore before the screen has drawn; this component does it after.
    window.history.scrollRestoration = 'manual';
    window.addEventListener('scroll', rememberPosition, { passive: true });
    return () => window.removeEventListener('scroll', rememberPosition);
  }, []);

  useLayoutEffect(() => {
    currentKey = key;
    const isNewPathname = previousPathname.current !== pathname;
    previousPathname.current = pathname;
    if (navigationType === 'POP') {
      const saved = positions.get(key);
      if (saved !== undefined) window.scrollTo(0, saved);
    } else if (isNewPathname) {
      window.scrollTo(0, 0);
    }
  }, [key, pathname, navigationType]);

  return null;
}
