import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { installDom } from './test-support/dom.ts';
import { json, never, stubApi } from './test-support/api.ts';
import { renderInRouter, testUser } from './test-support/render-app.tsx';
import { meQueryKey } from '@/features/auth';
import { startSignOutNavigation } from '@/features/auth/sign-out-navigation.ts';
import { AppRoutes } from './router.tsx';

// The screens other features build are stood in for: this file is about routing and guards.
vi.mock('@/features/home', () => ({ HomePage: () => <h1>Home screen</h1> }));
vi.mock('@/features/search', async () => {
  const { useParams } = await import('react-router');
  return {
    SearchPage: function SearchPage() {
      return <h1>Search screen for {useParams().query}</h1>;
    },
  };
});
vi.mock('@/features/favorites', () => ({ FavoritesPage: () => <h1>Favorites screen</h1> }));
vi.mock('@/features/item', async () => {
  const { useParams } = await import('react-router');
  return {
    ItemPage: function ItemPage() {
      const { type, slug } = useParams();
      if (type === 'bad') throw new Error('Invalid Content Type');
      return <h1>Item screen {`${type} ${slug}`}</h1>;
    },
  };
});
vi.mock('@/features/categories/category-route.tsx', async () => {
  const { useParams } = await import('react-router');
  return {
    Component: function CategoryRoute() {
      return <h1>Category screen {useParams().category}</h1>;
    },
  };
});
vi.mock('@/features/categories', () => ({ CategoriesPanel: () => null }));

// Lazy routes compile on first use under Vitest: give them time.
const slow = { timeout: 5000 };

beforeEach(() => {
  installDom();
  stubApi({
    'GET /api/auth/me': never,
    'POST /api/analytics/pageview': () => new Response(null, { status: 204 }),
    'GET /api/config': () => json({ source: 'local', apiKey: 'k', analyticsScriptUrl: null }),
  });
});

describe('routes and guards (spec §2)', () => {
  it.each([
    ['/', 'Home screen'],
    ['/search/cute%20cats', 'Search screen for cute cats'],
    ['/favorite', 'Favorites screen'],
    ['/gif/dancing-cat-abc123', 'Item screen gif dancing-cat-abc123'],
    ['/reactions', 'Category screen reactions'],
  ])('shows %s to a signed-in user', async (url, heading) => {
    const { router } = renderInRouter(<AppRoutes />, { url, session: testUser });
    expect(
      await screen.findByRole('heading', { level: 1, name: heading }, slow),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(url);
  });

  it.each(['/', '/search/cats', '/favorite', '/gif/dancing-cat-abc123', '/reactions'])(
    'sends a signed-out visitor from %s to /landing',
    async (url) => {
      const { router } = renderInRouter(<AppRoutes />, { url, session: null });
      expect(
        await screen.findByRole('button', { name: 'Get started for free' }, slow),
      ).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/landing');
      expect(router.state.location.state).toEqual({ from: url });
    },
  );

  it.each(['/', '/favorite', '/landing'])(
    'shows a loading indicator on %s while the user loads',
    async (url) => {
      const { router } = renderInRouter(<AppRoutes />, { url, session: 'loading' });
      expect(await screen.findByText('Checking your session…', {}, slow)).toBeInTheDocument();
      expect(screen.queryByRole('heading', { level: 1 })).not.toBeInTheDocument();
      expect(router.state.location.pathname).toBe(url);
    },
  );

  it('sends a signed-in user from /landing to /', async () => {
    const { router } = renderInRouter(<AppRoutes />, { url: '/landing', session: testUser });
    expect(await screen.findByRole('heading', { name: 'Home screen' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('shows the landing page to a signed-out visitor', async () => {
    renderInRouter(<AppRoutes />, { url: '/landing', session: null });
    expect(await screen.findByRole('heading', { level: 1 }, slow)).toHaveTextContent(
      'Say it with a GIF.',
    );
  });

  it('shows the credits to everyone', async () => {
    renderInRouter(<AppRoutes />, { url: '/credits', session: null });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Credits' }, slow),
    ).toBeInTheDocument();
  });

  it('answers an unknown address with a not-found page inside the layout', async () => {
    renderInRouter(<AppRoutes />, { url: '/a/b/c', session: testUser });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Page not found' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('banner')).toBeInTheDocument();
  });

  it("shows a failing screen's message, with header and footer still there", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderInRouter(<AppRoutes />, { url: '/bad/whatever-1', session: testUser });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Invalid Content Type' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
  });
  it('leaves the error page for the next screen', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { router } = renderInRouter(<AppRoutes />, { url: '/bad/whatever-1', session: testUser });
    await screen.findByRole('heading', { level: 1, name: 'Invalid Content Type' }, slow);
    await userEvent.setup().click(screen.getByRole('link', { name: 'Go to the home page' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Home screen' }, slow),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('does not redirect a second time while logging out goes to /landing', async () => {
    const { router, queryClient } = renderInRouter(<AppRoutes />, {
      url: '/favorite',
      session: testUser,
    });
    await screen.findByRole('heading', { level: 1, name: 'Favorites screen' }, slow);
    act(() => {
      startSignOutNavigation();
      queryClient.setQueryData(meQueryKey, null);
    });
    expect(await screen.findByText('Loading…')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/favorite');
    await router.navigate('/landing', { replace: true });
    expect(
      await screen.findByRole('button', { name: 'Get started for free' }, slow),
    ).toBeInTheDocument();
    expect(router.state.location.state).toBeNull();
  });
});

describe('layout (spec §2)', () => {
  it('has a skip link, a header, the routed screen in main, and a footer', async () => {
    renderInRouter(<AppRoutes />, { url: '/', session: testUser });
    const heading = await screen.findByRole('heading', { name: 'Home screen' }, slow);
    const main = screen.getByRole('main');
    expect(main).toContainElement(heading);
    const skip = screen.getByRole('link', { name: 'Skip to content' });
    expect(skip).toHaveAttribute('href', '#main-content');
    expect(main).toHaveAttribute('id', 'main-content');
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(
      within(screen.getByRole('contentinfo')).getByRole('heading', { name: 'Connect With Us' }),
    ).toBeInTheDocument();
  });
});
