import type { SessionUser } from '@sticky/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import toast from 'react-hot-toast';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { RouteObject } from 'react-router';
import { AppToaster } from '@/components/toaster.tsx';
import { meQueryKey } from '@/features/auth';

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

/** Renders routes the way the app does: TanStack Query, the router and the toast area. */
export function renderRoutes(routes: RouteObject[], { url, session, state }: RenderAppOptions) {
  toast.remove();
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  if (session !== 'loading') queryClient.setQueryData(meQueryKey, session);
  const [pathname = '/', search] = url.split('?');
  const router = createMemoryRouter(routes, {
    initialEntries: [{ pathname, search: search ? `?${search}` : '', state }],
  });
  const view = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <AppToaster />
    </QueryClientProvider>,
  );
  return { ...view, router, queryClient };
}
