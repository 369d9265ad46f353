import { QueryClientProvider } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useSyncExternalStore } from 'react';
import type { ReactNode } from 'react';
import { getIsToasterWanted, subscribeToasterWanted } from '@/lib/notify.ts';

const AppToaster = lazy(() =>
  import('@/components/toaster.tsx').then((module) => ({ default: module.AppToaster })),
);

/** The toast area (top center) mounts with the first toast; see `notify`. */
function DeferredToaster() {
  const isWanted = useSyncExternalStore(subscribeToasterWanted, getIsToasterWanted);
  if (!isWanted) return null;
  return (
    <Suspense fallback={null}>
      <AppToaster />
    </Suspense>
  );
}

interface AppProvidersProps {
  queryClient: QueryClient;
  children: ReactNode;
}

/** What every screen needs above the router: server state and the toast area. */
export function AppProviders({ queryClient, children }: AppProvidersProps) {
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <DeferredToaster />
    </QueryClientProvider>
  );
}
