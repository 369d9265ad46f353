import { FetchError } from '@giphy/js-fetch-api';
import { focusManager } from '@tanstack/react-query';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { meQueryKey } from '@/features/auth';
import { json, never, stubApi } from '@/test-support/api.ts';
import { createFakeContent, giphyConfig, setUpFakeContent } from '@/test-support/content.ts';
import { loadItem } from '@/test-support/giphy-fixtures.ts';
import { renderInRouter, testUser } from '@/test-support/render.tsx';
import { AppRoutes } from './router.tsx';

// Most screens are stood in for: this file is about routing, guards and the layout. The item
// screen is the real one, on a fake content client: it shows how a screen's failures reach
// the router.
vi.mock('@/features/home', () => ({ HomePage: () => <h1>Home screen</h1> }));
vi.mock('@/features/search', async () => {
  const { useParams } = await import('react-router');
  return {
    SearchPage: function SearchPage() {
      return <h1>Search screen for {useParams().query}</h1>;
    },
  };
});
vi.mock('@/features/favorites', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  FavoritesPage: () => <h1>Favorites screen</h1>,
}));
vi.mock('@/features/categories', async () => {
  const { useParams } = await import('react-router');
  return {
    CategoryPage: function CategoryPage() {
      return <h1>Category screen {useParams().category}</h1>;
    },
  };
});

const item = loadItem();
const itemUrl = `/gif/${item.slug}`;

const content = setUpFakeContent();
let api: ReturnType<typeof stubApi>;

beforeEach(() => {
  content.gf.gif.mockResolvedValue({ data: item, meta: { response_id: 'r' } });
  content.gf.related.mockReturnValue(never());
  api = stubApi({
    'GET /api/auth/me': never,
    'GET /api/favorites': () => json({ success: true, ids: [] }),
    'POST /api/events': () => new Response(null, { status: 204 }),
    'POST /api/analytics/pageview': () => new Response(null, { status: 204 }),
    'GET /api/config': () => json({ source: 'local', apiKey: 'k', analyticsScriptUrl: null }),
  });
});

describe('routes and guards', () => {
  it.each([
    ['/', 'Home screen'],
    ['/search/cute%20cats', 'Search screen for cute cats'],
    ['/favorite', 'Favorites screen'],
    [itemUrl, item.title],
    ['/reactions', 'Category screen reactions'],
  ])('shows %s to a signed-in user', async (url, heading) => {
    const { router } = renderInRouter(<AppRoutes />, { url, session: testUser, content });
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(url);
  });

  it('opens the item whose id ends the slug', async () => {
    renderInRouter(<AppRoutes />, { url: itemUrl, content });
    await screen.findByRole('heading', { level: 1, name: item.title });
    expect(content.gf.gif).toHaveBeenCalledWith(String(item.id));
  });

  it.each(['/', '/search/cats', '/favorite', itemUrl, '/reactions'])(
    'sends a signed-out visitor from %s to /landing',
    async (url) => {
      const { router } = renderInRouter(<AppRoutes />, { url, session: null, content });
      expect(
        await screen.findByRole('button', { name: 'Get started for free' }),
      ).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/landing');
      expect(router.state.location.state).toEqual({ from: url });
      expect(content.gf.gif).not.toHaveBeenCalled();
    },
  );

  it.each(['/', '/favorite', '/landing'])(
    'shows a loading indicator on %s while the user loads',
    async (url) => {
      const { router } = renderInRouter(<AppRoutes />, { url, session: 'loading' });
      expect(await screen.findByText('Checking your session…')).toBeInTheDocument();
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
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent(
      'Say it with a GIF.',
    );
  });

  it('shows the credits to everyone', async () => {
    renderInRouter(<AppRoutes />, { url: '/credits', session: null });
    expect(await screen.findByRole('heading', { level: 1, name: 'Credits' })).toBeInTheDocument();
  });

  it('answers an unknown address with a not-found page inside the layout', async () => {
    renderInRouter(<AppRoutes />, { url: '/a/b/c', session: testUser });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Page not found' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('banner')).toBeInTheDocument();
  });

  it("answers a type other than gif, sticker or text with 'Invalid Content Type' inside the layout", async () => {
    renderInRouter(<AppRoutes />, { url: '/video/dancing-cat-abc123', content });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Invalid Content Type' }),
    ).toBeInTheDocument();
    expect(document.title).toBe('Invalid Content Type · Sticky');
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
    expect(content.gf.gif).not.toHaveBeenCalled();
  });
});

describe('an ended session (expired, deleted, logged out elsewhere)', () => {
  const expectLanding = async (router: { state: { location: { pathname: string } } }) => {
    expect(await screen.findByRole('button', { name: 'Get started for free' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/landing');
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  };

  it('takes the person to /landing when our /v1 answers 401, not to a Retry', async () => {
    content.gf.gif.mockRejectedValue(
      new FetchError(
        '@giphy/js-fetch-api: Sign in to use the catalog.',
        `${window.location.origin}/v1/gifs/${item.id}?api_key=sticky-web`,
        401,
        'Unauthorized',
      ),
    );
    const { router, queryClient } = renderInRouter(<AppRoutes />, { url: itemUrl, content });
    await expectLanding(router);
    // Sign-in brings them back where they were.
    expect(router.state.location).toMatchObject({ state: { from: itemUrl } });
    expect(queryClient.getQueryData(meQueryKey)).toBeNull();
  });

  it('takes the person to /landing when /api answers 401', async () => {
    stubApi({
      'GET /api/favorites': () =>
        json({ success: false, error: { code: 'unauthorized', message: 'Sign in.' } }, 401),
      'POST /api/events': () => new Response(null, { status: 204 }),
      'POST /api/analytics/pageview': () => new Response(null, { status: 204 }),
      'GET /api/config': () => json({ source: 'local', apiKey: 'k', analyticsScriptUrl: null }),
    });
    const { router } = renderInRouter(<AppRoutes />, { url: itemUrl, content });
    await expectLanding(router);
  });

  it('takes the person to /landing when the session check on return to the tab says 401', async () => {
    const { router, queryClient } = renderInRouter(<AppRoutes />, { url: '/', content });
    await screen.findByRole('heading', { level: 1, name: 'Home screen' });
    api = stubApi({
      'GET /api/auth/me': () => json({ success: false, user: null }, 401),
      'POST /api/analytics/pageview': () => new Response(null, { status: 204 }),
      'GET /api/config': () => json({ source: 'local', apiKey: 'k', analyticsScriptUrl: null }),
    });
    // The check re-runs on focus once it is older than its fresh time.
    const checkedLongAgo = Date.now() - 60 * 60_000;
    queryClient.setQueryData(meQueryKey, testUser, { updatedAt: checkedLongAgo });
    act(() => {
      focusManager.setFocused(false);
      focusManager.setFocused(true);
    });
    await expectLanding(router);
    expect(api.calls.map((call) => `${call.method} ${call.url}`)).toContain('GET /api/auth/me');
  });

  it('keeps the session when GIPHY itself answers 401 (a bad key in GIPHY mode)', async () => {
    const giphy = createFakeContent(giphyConfig);
    giphy.gf.gif.mockRejectedValue(
      new FetchError(
        '@giphy/js-fetch-api: Unauthorized',
        `http://giphy.test/v1/gifs/${item.id}?api_key=bad`,
        401,
        'Unauthorized',
      ),
    );
    const { router, queryClient } = renderInRouter(<AppRoutes />, {
      url: itemUrl,
      content: giphy,
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('@giphy/js-fetch-api: Unauthorized');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(itemUrl);
    expect(queryClient.getQueryData(meQueryKey)).toEqual(testUser);
  });
});

describe('layout', () => {
  it('has a skip link, a header, the routed screen in main, and a footer', async () => {
    renderInRouter(<AppRoutes />, { url: '/', session: testUser });
    const heading = await screen.findByRole('heading', { name: 'Home screen' });
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

  it('moves focus to the new screen after a navigation', async () => {
    renderInRouter(<AppRoutes />, { url: '/a/b/c', session: testUser });
    await screen.findByRole('heading', { level: 1, name: 'Page not found' });
    await userEvent.setup().click(screen.getByRole('link', { name: 'Go to the home page' }));
    await screen.findByRole('heading', { level: 1, name: 'Home screen' });
    expect(screen.getByRole('main')).toHaveFocus();
  });
});

/** One item as our `/v1` (and `/api/shared/{id}`) serializes it: a wide upload. */
function ourItem(id: string, title: string) {
  const time = '2026-01-02 03:04:05';
  const original = {
    url: `/media/${id}.gif`,
    webp: `/media/${id}.webp`,
    width: '1200',
    height: '300',
  };
  return {
    type: 'gif',
    id,
    url: `https://sticky.test/gif/wide-${id}`,
    slug: `wide-${id}`,
    bitly_gif_url: '',
    bitly_url: '',
    embed_url: '',
    username: '',
    source: '',
    title,
    rating: 'g',
    content_url: '',
    tags: [],
    source_tld: '',
    source_post_url: '',
    alt_text: `${title}, an animated GIF`,
    caption: '',
    ...Object.fromEntries(
      [
        'is_sticker',
        'is_indexable',
        'is_dynamic',
        'is_hidden',
        'is_removed',
        'is_community',
        'is_anonymous',
        'is_featured',
        'is_realtime',
        'is_nsfw',
      ].map((name) => [name, 0]),
    ),
    import_datetime: time,
    trending_datetime: time,
    create_datetime: time,
    update_datetime: time,
    images: {
      original,
      fixed_width: { url: `/media/${id}-200w.gif`, width: '200', height: '50' },
    },
  };
}

describe('shared links, signed out (docs/uploads.md, "Links")', () => {
  const publicLinks = { source: 'local' as const, apiKey: 'k', analyticsScriptUrl: null };

  it('says on the landing page that a GIF waits after sign-in, and signs in back to it', async () => {
    const { router } = renderInRouter(<AppRoutes />, {
      url: itemUrl,
      session: null,
      config: { ...publicLinks, publicLinks: false },
    });
    expect(await screen.findByText('A GIF is waiting for you after sign-in.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/landing');
    expect(router.state.location.state).toEqual({ from: itemUrl });
    expect(api.calls.some((call) => call.url.includes('/api/shared/'))).toBe(false);
  });

  it('says nothing of a GIF when the visitor came from another page', async () => {
    renderInRouter(<AppRoutes />, { url: '/favorite', session: null });
    await screen.findByRole('button', { name: 'Get started for free' });
    expect(screen.queryByText('A GIF is waiting for you after sign-in.')).not.toBeInTheDocument();
  });

  it('shows the GIF, its title and a sign-in button with PUBLIC_LINKS', async () => {
    api = stubApi({
      'GET /api/auth/me': never,
      'POST /api/analytics/pageview': () => new Response(null, { status: 204 }),
      'GET /api/shared/': () => json({ success: true, item: ourItem('abc123', 'Wide wave') }),
    });
    const { router } = renderInRouter(<AppRoutes />, {
      url: '/gif/wide-abc123',
      session: null,
      config: { ...publicLinks, publicLinks: true },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Wide wave' })).toBeVisible();
    expect(screen.getByRole('img', { name: 'Wide wave, an animated GIF' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/gif/wide-abc123');
    expect(api.calls.map((call) => call.url)).toContain('/api/shared/abc123');
  });

  it('sends a visitor to the landing page when the server shares no such item', async () => {
    api = stubApi({
      'GET /api/auth/me': never,
      'POST /api/analytics/pageview': () => new Response(null, { status: 204 }),
      'GET /api/shared/': () =>
        json({ success: false, error: { code: 'not_found', message: 'No.' } }, 404),
    });
    const { router } = renderInRouter(<AppRoutes />, {
      url: '/gif/kept-private1',
      session: null,
      config: { ...publicLinks, publicLinks: true },
    });
    expect(await screen.findByText('A GIF is waiting for you after sign-in.')).toBeInTheDocument();
    expect(router.state.location.state).toEqual({ from: '/gif/kept-private1' });
  });

  it("waits on an upload's link in the app's look, then opens its item", async () => {
    let state: Record<string, string> = { state: 'processing' };
    api = stubApi({
      'GET /api/auth/me': never,
      'GET /api/links/': () => json({ success: true, ...state }),
      'POST /api/analytics/pageview': () => new Response(null, { status: 204 }),
    });
    const uploadId = '0b6c2f1e-1111-4222-8333-444455556666';
    const { router } = renderInRouter(<AppRoutes />, {
      url: `/u/${uploadId}`,
      session: null,
      config: { ...publicLinks, publicLinks: false },
    });
    expect(
      await screen.findByText('This GIF is being made ready. It opens here as soon as it is.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('banner')).toBeInTheDocument();
    state = { state: 'ready', path: itemUrl };
    // It asks again every two seconds; then the item's page (the landing page, signed out).
    expect(
      await screen.findByText('A GIF is waiting for you after sign-in.', {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(router.state.location.state).toEqual({ from: itemUrl });
  });
});
