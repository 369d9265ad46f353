export { SiteHeader } from './site-header.tsx';
export { SiteFooter } from './site-footer.tsx';
export { loadSignedInChrome } from './load-signed-in-chrome.ts';
