export { ItemPage } from './item-page.tsx';

// Pages of their own chunk: the item page's first load stays within its budget (docs/web.md,
// "Lazy routes").
export const loadSharedItemPage = () =>
  import('./shared-item-page.tsx').then((module) => module.SharedItemPage);
export const loadUploadLinkPage = () =>
  import('./upload-link-page.tsx').then((module) => module.UploadLinkPage);
