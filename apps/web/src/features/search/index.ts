export { SearchPage } from './search-page.tsx';
