export { CreditsPage } from './credits-page.tsx';
