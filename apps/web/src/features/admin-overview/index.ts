export { AdminOverviewPage } from './overview-page.tsx';
