export { AdminPage } from './admin-page.tsx';
export { ItemManageActions } from './components/item-manage-actions.tsx';
export { MyUploadsPage } from './my-uploads-page.tsx';
export { UploadPage } from './upload-page.tsx';
