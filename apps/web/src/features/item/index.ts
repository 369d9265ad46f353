export { ItemPage } from './item-page.tsx';
export { SharedItemPage } from './shared-item-page.tsx';
export { UploadLinkPage } from './upload-link-page.tsx';
