import type { ClientConfig, SessionUser } from '@sticky/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import toast from 'react-hot-toast';
import { MemoryRouter, Route, Routes, useRoutes } from 'react-router';
import type { RouteObject } from 'react-router';
import { createQueryClient } from '@/app/query-client.ts';
import { AppToaster } from '@/components/toaster.tsx';
import { meQueryKey } from '@/features/auth';
import { contentClientQueryOptions } from '@/features/content';
import { clientConfigQueryKey } from '@/lib/client-config-api.ts';
import type { FakeContent } from './content.ts';
import { createTestRouter } from './router-probe.tsx';

export const testUser: SessionUser = {
  id: 'u1',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  picture: null,
  isAdmin: false,
  canUpload: true,
};

export interface RenderAppOptions {
  url: string;
  /**
   * A user (the default: `testUser`), null (signed out), or 'loading' (the session check has
   * not answered).
   */
  session?: SessionUser | null | 'loading';
  /** Extra `history.state` for the first entry (e.g. `{ from }` on /landing). */
  state?: unknown;
  /** The content client the screens use (`setUpFakeContent`); without it they ask `/api/config`. */
  content?: FakeContent;
  /** `/api/config`'s answer, already in the cache (the content client's config by default). */
  config?: ClientConfig;
}

/**
 * Renders `routes` (e.g. `<AppRoutes />`) the way the app does: the app's own QueryClient (its
 * 401 handling included, retries off so a failure shows at once), a router and the toast
 * area. Returns `router` to read the location from, and the `queryClient`.
 */
export function renderInRouter(
  routes: ReactNode,
  { url, session = testUser, state, content, config = content?.client.config }: RenderAppOptions,
) {
  // Toasts live in react-hot-toast's module-level store: start without the last test's.
  toast.remove();
  const queryClient = createQueryClient();
  const defaults = queryClient.getDefaultOptions();
  queryClient.setDefaultOptions({
    // Nothing is collected while a test runs: no timers outlive it.
    queries: { ...defaults.queries, retry: false, gcTime: Infinity },
    mutations: { ...defaults.mutations, retry: false },
  });
  if (session !== 'loading') queryClient.setQueryData(meQueryKey, session);
  if (config) queryClient.setQueryData(clientConfigQueryKey, config);
  if (content) queryClient.setQueryData(contentClientQueryOptions.queryKey, content.client);
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

/**
 * One screen mounted at its route pattern (`path`, e.g. `/:type/:slug`), opened at `url`;
 * any other address shows "elsewhere".
 */
export function renderRoute(
  element: ReactElement,
  { path, ...options }: RenderAppOptions & { path: string },
) {
  return renderInRouter(
    <Routes>
      <Route path={path} element={element} />
      <Route path="*" element={<p>elsewhere</p>} />
    </Routes>,
    options,
  );
}
