export { CategoryPage } from './category-page.tsx';
