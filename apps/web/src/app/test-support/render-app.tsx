import type { SessionUser } from '@sticky/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import toast from 'react-hot-toast';
import { MemoryRouter, useRoutes } from 'react-router';
import type { RouteObject } from 'react-router';
import { AppToaster } from '@/components/toaster.tsx';
import { meQueryKey } from '@/features/auth';
import { createTestRouter } from './router-probe.tsx';

export const testUser: SessionUser = {
  id: 'u1',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  picture: null,
};

export interface RenderAppOptions {
  url: string;
  /** A user, null (signed out), or 'loading' (the session check has not answered). */
  session: SessionUser | null | 'loading';
  /** Extra `history.state` for the first entry (e.g. `{ from }` on /landing). */
  state?: unknown;
}

/**
 * Renders `routes` (e.g. `<AppRoutes />`) the way the app does: TanStack Query, a router
 * and the toast area. Returns `router` to read the location from.
 */
export function renderInRouter(routes: ReactNode, { url, session, state }: RenderAppOptions) {
  toast.remove();
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  if (session !== 'loading') queryClient.setQueryData(meQueryKey, session);
  const [pathname = '/', search] = url.split('?');
  const { router, RouterProbe } = createTestRouter();
  const view = render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[{ pathname, search: search ? `?${search}` : '', state }]}>
        {routes}
        <RouterProbe />
      </MemoryRouter>
      <AppToaster />
    </QueryClientProvider>,
  );
  return { ...view, router, queryClient };
}

function RouteObjects({ routes }: { routes: RouteObject[] }) {
  return useRoutes(routes);
}

/** `renderInRouter` for a few stand-in routes written as objects. */
export function renderRoutes(routes: RouteObject[], options: RenderAppOptions) {
  return renderInRouter(<RouteObjects routes={routes} />, options);
}
