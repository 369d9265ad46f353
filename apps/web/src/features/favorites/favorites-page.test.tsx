import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { getContentClient } from '@/features/content/content-client.ts';
import { installFetch, json } from '@/features/content/test-support/api-mock.ts';
import {
  createFakeGiphyFetch,
  fakeContentClient,
} from '@/features/content/test-support/content-client-mock.ts';
import type { FakeGiphyFetch } from '@/features/content/test-support/content-client-mock.ts';
import {
  fixtureFiles,
  hasGiphyFixtures,
  listOf,
  loadList,
} from '@/features/content/test-support/giphy-fixtures.ts';
import { renderRoute } from '@/features/content/test-support/render.tsx';
import { FavoritesPage } from './favorites-page.tsx';

vi.mock('@/features/content/content-client.ts', () => ({ getContentClient: vi.fn() }));
vi.mock('@/features/auth', () => ({
  useAuth: () => ({
    user: { id: 'user-1', name: 'Ada', email: 'ada@example.com', picture: null },
    isLoading: false,
  }),
}));

const renderFavorites = () =>
  renderRoute(<FavoritesPage />, { path: '/favorite', url: '/favorite' });

describe.skipIf(!hasGiphyFixtures)('FavoritesPage', () => {
  // The API client loads the contracts on demand; a cold first load must not eat the
  // assertions' time.
  beforeAll(async () => {
    await import('@sticky/contracts');
  });
  let gf: FakeGiphyFetch;
  beforeEach(() => {
    gf = createFakeGiphyFetch();
    vi.mocked(getContentClient).mockResolvedValue(fakeContentClient(gf));
  });
  afterEach(() => vi.unstubAllGlobals());

  it('says No favourites with an image when there are none', async () => {
    installFetch({ 'GET /api/favorites': () => json({ success: true, ids: [] }) });
    renderFavorites();
    expect(screen.getByRole('heading', { name: 'My Favorites' })).toBeInTheDocument();
    expect(await screen.findByText('No favourites')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: /heart/ })).toBeInTheDocument();
    expect(gf.gifs).not.toHaveBeenCalled();
  });

  it('shows the favourites, newest first, fetched with gifs?ids=', async () => {
    const items = loadList(fixtureFiles.search).data;
    const ids = items.map((item) => String(item.id)).reverse();
    installFetch({ 'GET /api/favorites': () => json({ success: true, ids }) });
    // The source answers in its own order; the page keeps the favourites' order.
    gf.gifs.mockResolvedValue(listOf(items));
    renderFavorites();
    const grid = await screen.findByRole('list', { name: 'My Favorites' });
    expect(gf.gifs).toHaveBeenCalledWith(ids);
    const hrefs = within(grid)
      .getAllByRole('link')
      .map((link) => link.getAttribute('href'));
    expect(hrefs).toEqual([...items].reverse().map((item) => `/gif/${item.slug}`));
  });

  it('asks for 25 ids at a time', async () => {
    const ids = Array.from({ length: 30 }, (_, i) => `id${i}`);
    installFetch({ 'GET /api/favorites': () => json({ success: true, ids }) });
    gf.gifs.mockResolvedValue(listOf(loadList(fixtureFiles.trending).data));
    renderFavorites();
    await screen.findByRole('list', { name: 'My Favorites' });
    expect(gf.gifs).toHaveBeenCalledWith(ids.slice(0, 25));
  });

  it('merges ids this browser kept before, once, and then mirrors the account in favGifs', async () => {
    localStorage.setItem('favGifs', JSON.stringify(['old1', 'old2']));
    const api = installFetch({
      'POST /api/favorites/merge': () =>
        json({ success: true, merged: true, ids: ['acc1', 'old2', 'old1'] }),
      'GET /api/favorites': () => json({ success: true, ids: ['acc1', 'old2', 'old1'] }),
    });
    gf.gifs.mockResolvedValue(listOf([]));
    renderFavorites();
    await waitFor(() => expect(gf.gifs).toHaveBeenCalledWith(['acc1', 'old2', 'old1']));
    expect(api.calls).toContainEqual({
      method: 'POST',
      url: '/api/favorites/merge',
      body: { ids: ['old1', 'old2'] },
    });
    expect(JSON.parse(localStorage.getItem('favGifs')!)).toEqual(['old1', 'old2', 'acc1']);
    expect(localStorage.getItem('favGifsOwner')).toBe('user-1');
  });

  it('never merges a copy that mirrors an account', async () => {
    localStorage.setItem('favGifs', JSON.stringify(['someoneElses']));
    localStorage.setItem('favGifsOwner', 'user-2');
    const api = installFetch({ 'GET /api/favorites': () => json({ success: true, ids: [] }) });
    renderFavorites();
    expect(await screen.findByText('No favourites')).toBeInTheDocument();
    expect(api.calls.map((call) => call.url)).toEqual(['/api/favorites']);
    expect(JSON.parse(localStorage.getItem('favGifs')!)).toEqual([]);
  });

  it('shows a failed load with Retry', async () => {
    installFetch({
      'GET /api/favorites': () =>
        json(
          {
            success: false,
            error: { code: 'unavailable', message: 'The database is unavailable.' },
          },
          503,
        ),
    });
    renderFavorites();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The database is unavailable.');
    expect(within(alert).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });
});
