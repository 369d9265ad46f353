import { BrowserRouter } from 'react-router';
import { meQueryKey, meQueryOptions, takeCarriedSession } from '@/features/auth';
import { AppProviders } from './providers.tsx';
import { createQueryClient } from './query-client.ts';
import { AppRoutes, preloadPageAt } from './router.tsx';

const queryClient = createQueryClient();
// Every screen waits for the session check: a signed-in page's HTML carries its answer (the
// header and the screen are then drawn whole at once), else it starts now, alongside the first
// route's code.
const carriedUser = takeCarriedSession();
if (carriedUser) queryClient.setQueryData(meQueryKey, carriedUser);
else void queryClient.prefetchQuery(meQueryOptions);
/** The first screen's code, downloading since the page's HTML named it. */
export const firstScreenLoaded = preloadPageAt(window.location.pathname);

export function App() {
  return (
    <AppProviders queryClient={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  );
}
