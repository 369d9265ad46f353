/**
 * The signed-in header (menu, categories, search box) is its own chunk: visitors on the
 * landing page never download Radix's menu. Protected routes start this download together
 * with their own, so the header is ready when the page is.
 */
export const loadSignedInChrome = () => import('./signed-in-chrome.tsx');
