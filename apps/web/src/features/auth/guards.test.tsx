import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoutes, testUser } from '@/test-support/render.tsx';
import { RequireGuest, RequireUser } from './guards.tsx';
import { meQueryKey } from './me-api.ts';
import { startSignOutNavigation } from './sign-out-navigation.ts';

function renderGuarded(url: string) {
  return renderRoutes(
    [
      { element: <RequireUser />, children: [{ path: '/favorite', element: <h1>Favorites</h1> }] },
      { element: <RequireGuest />, children: [{ path: '/landing', element: <h1>Landing</h1> }] },
    ],
    { url, session: testUser },
  );
}

describe('route guards and logging out', () => {
  it('sends a visitor whose session ended to /landing, remembering where they were', async () => {
    const { router, queryClient } = renderGuarded('/favorite');
    expect(screen.getByRole('heading', { name: 'Favorites' })).toBeInTheDocument();
    act(() => queryClient.setQueryData(meQueryKey, null));
    expect(await screen.findByRole('heading', { name: 'Landing' })).toBeInTheDocument();
    expect(router.state.location.state).toEqual({ from: '/favorite' });
  });

  it('does not redirect a second time while logging out goes to /landing', async () => {
    const { router, queryClient } = renderGuarded('/favorite');
    act(() => {
      startSignOutNavigation(queryClient);
      queryClient.setQueryData(meQueryKey, null);
    });
    // A loader, and no redirect of its own: logging out navigates.
    expect(await screen.findByRole('status')).toHaveTextContent('Loading…');
    expect(router.state.location.pathname).toBe('/favorite');

    await router.navigate('/landing', { replace: true });
    expect(screen.getByRole('heading', { name: 'Landing' })).toBeInTheDocument();
    expect(router.state.location.state).toBeNull();

    // Arriving there ended it: the next ended session redirects as usual.
    act(() => queryClient.setQueryData(meQueryKey, testUser));
    await router.navigate('/favorite');
    act(() => queryClient.setQueryData(meQueryKey, null));
    expect(await screen.findByRole('heading', { name: 'Landing' })).toBeInTheDocument();
    expect(router.state.location.state).toEqual({ from: '/favorite' });
  });

  it('keeps the sign-out mark in the app that logged out, not in the module', async () => {
    const first = renderGuarded('/favorite');
    act(() => startSignOutNavigation(first.queryClient));
    first.unmount();
    // Another app (a new QueryClient) starts without it.
    const { queryClient } = renderGuarded('/favorite');
    act(() => queryClient.setQueryData(meQueryKey, null));
    expect(await screen.findByRole('heading', { name: 'Landing' })).toBeInTheDocument();
  });
});
