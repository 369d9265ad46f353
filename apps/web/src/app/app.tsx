import { BrowserRouter } from 'react-router';
import { meQueryOptions } from '@/features/auth';
import { AppProviders } from './providers.tsx';
import { createQueryClient } from './query-client.ts';
import { AppRoutes, preloadPageAt } from './router.tsx';

const queryClient = createQueryClient();
// Every screen waits for the session check: start it now, alongside the first route's code.
void queryClient.prefetchQuery(meQueryOptions);
preloadPageAt(window.location.pathname);

export function App() {
  return (
    <AppProviders queryClient={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  );
}
