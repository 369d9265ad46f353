export { CategoriesPanel } from './categories-panel.tsx';
