export { ItemPage } from './item-page.tsx';
