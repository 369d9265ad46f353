import { QueryClientProvider } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import type { ReactNode } from 'react';

const AppToaster = lazy(() =>
  import('@/components/toaster.tsx').then((module) => ({ default: module.AppToaster })),
);

/**
 * The toast area (top center) is not needed to paint the first screen, so it downloads once
 * the browser is idle. Toasts raised before it mounts are kept by react-hot-toast's store
 * and shown when it does.
 */
function DeferredToaster() {
  const [isReady, setIsReady] = useState(false);
  useEffect(() => {
    if (typeof window.requestIdleCallback === 'function') {
      const handle = window.requestIdleCallback(() => setIsReady(true), { timeout: 2000 });
      return () => window.cancelIdleCallback(handle);
    }
    const timer = window.setTimeout(() => setIsReady(true), 200);
    return () => window.clearTimeout(timer);
  }, []);
  if (!isReady) return null;
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
