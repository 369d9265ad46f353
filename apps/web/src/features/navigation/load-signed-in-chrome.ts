import type * as SignedInChromeModule from './signed-in-chrome.tsx';

type SignedInChrome = typeof SignedInChromeModule;

let loadedChrome: SignedInChrome | undefined;

/**
 * The signed-in header (menu, categories, search box) is its own chunk: visitors on the
 * landing page never download Radix's menu. Protected routes start this download together
 * with their own, so the header is ready when the page is.
 */
export const loadSignedInChrome = () =>
  import('./signed-in-chrome.tsx').then((chrome) => (loadedChrome = chrome));

/**
 * The chunk, once it is here. The header draws it directly then: a lazy component suspends
 * at its first render even when its code has arrived, and its placeholder, painted for a
 * frame, made the header's buttons move (docs/web.md, "First page").
 */
export function getLoadedSignedInChrome(): SignedInChrome | undefined {
  return loadedChrome;
}
