export { SiteHeader } from './site-header.tsx';
export { SiteFooter } from './site-footer.tsx';
export { preloadSignedInChrome } from './load-signed-in-chrome.ts';
