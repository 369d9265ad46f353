import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { json, stubApi } from '@/test-support/api.ts';
import { setUpFakeContent } from '@/test-support/content.ts';
import { fixtureFiles, listOf, loadList } from '@/test-support/giphy-fixtures.ts';
import { renderRoute, testUser } from '@/test-support/render.tsx';
import { FavoritesPage } from './favorites-page.tsx';

describe('FavoritesPage', () => {
  // The API client loads the contracts on demand; a cold first load must not eat the
  // assertions' time.
  beforeAll(async () => {
    await import('@sticky/contracts');
  });
  const content = setUpFakeContent();
  const renderFavorites = (user = testUser) =>
    renderRoute(<FavoritesPage />, { path: '/favorite', url: '/favorite', content, session: user });

  it('says No favourites with an image when there are none', async () => {
    stubApi({ 'GET /api/favorites': () => json({ success: true, ids: [] }) });
    renderFavorites();
    expect(screen.getByRole('heading', { name: 'My Favorites' })).toBeInTheDocument();
    expect(await screen.findByText('No favourites')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: /heart/ })).toBeInTheDocument();
    expect(content.gf.gifs).not.toHaveBeenCalled();
  });

  it('shows the favourites, newest first, fetched with gifs?ids=', async () => {
    const items = loadList(fixtureFiles.search).data;
    const ids = items.map((item) => String(item.id)).reverse();
    stubApi({ 'GET /api/favorites': () => json({ success: true, ids }) });
    // The source answers in its own order; the page keeps the favourites' order.
    content.gf.gifs.mockResolvedValue(listOf(items));
    renderFavorites();
    const grid = await screen.findByRole('list', { name: 'My Favorites' });
    expect(content.gf.gifs).toHaveBeenCalledWith(ids);
    const hrefs = within(grid)
      .getAllByRole('link')
      .map((link) => link.getAttribute('href'));
    expect(hrefs).toEqual([...items].reverse().map((item) => `/gif/${item.slug}`));
  });

  it('asks for 25 ids at a time', async () => {
    const ids = Array.from({ length: 30 }, (_, i) => `id${i}`);
    stubApi({ 'GET /api/favorites': () => json({ success: true, ids }) });
    content.gf.gifs.mockResolvedValue(listOf(loadList(fixtureFiles.trending).data));
    renderFavorites();
    await screen.findByRole('list', { name: 'My Favorites' });
    expect(content.gf.gifs).toHaveBeenCalledTimes(1);
    expect(content.gf.gifs).toHaveBeenCalledWith(ids.slice(0, 25));
  });

  it('merges ids this browser kept before into the account, then mirrors the account in favGifs', async () => {
    localStorage.setItem('favGifs', JSON.stringify(['old1', 'old2']));
    const api = stubApi({
      'POST /api/favorites/merge': () =>
        json({ success: true, merged: true, ids: ['acc1', 'old2', 'old1'] }),
      'GET /api/favorites': () => json({ success: true, ids: ['acc1', 'old2', 'old1'] }),
    });
    content.gf.gifs.mockResolvedValue(listOf([]));
    renderFavorites();
    // The merged list is the one shown: the account's own first, then the kept ones.
    await waitFor(() => expect(content.gf.gifs).toHaveBeenCalledWith(['acc1', 'old2', 'old1']));
    expect(api.calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      'POST /api/favorites/merge',
    ]);
    expect(api.calls[0]!.body).toEqual({ ids: ['old1', 'old2'] });
    expect(JSON.parse(localStorage.getItem('favGifs')!)).toEqual(['old1', 'old2', 'acc1']);
    expect(localStorage.getItem('favGifsOwner')).toBe(testUser.id);
  });

  it('merges once: not again after a reload, and never into a second account on this browser', async () => {
    localStorage.setItem('favGifs', JSON.stringify(['old1']));
    const secondUser = { ...testUser, id: 'u2', name: 'Grace Hopper' };
    const lists: Record<string, string[]> = { [testUser.id]: ['acc1', 'old1'], u2: ['b1'] };
    let signedIn = testUser.id;
    const api = stubApi({
      'POST /api/favorites/merge': () =>
        json({ success: true, merged: true, ids: lists[signedIn] }),
      'GET /api/favorites': () => json({ success: true, ids: lists[signedIn] }),
    });
    content.gf.gifs.mockResolvedValue(listOf([]));
    const requests = () => api.calls.map((call) => `${call.method} ${call.url}`);

    const first = renderFavorites();
    await waitFor(() => expect(content.gf.gifs).toHaveBeenCalledWith(['acc1', 'old1']));
    expect(requests()).toEqual(['POST /api/favorites/merge']);
    first.unmount();

    // A reload: a new app on the same browser storage.
    const reloaded = renderFavorites();
    await waitFor(() => expect(requests()).toHaveLength(2));
    expect(requests()[1]).toBe('GET /api/favorites');
    reloaded.unmount();

    // Someone else signs in on this browser: the copy mirrors the first account, not theirs.
    signedIn = 'u2';
    renderFavorites(secondUser);
    await waitFor(() => expect(content.gf.gifs).toHaveBeenLastCalledWith(['b1']));
    expect(requests()).toEqual([
      'POST /api/favorites/merge',
      'GET /api/favorites',
      'GET /api/favorites',
    ]);
    expect(JSON.parse(localStorage.getItem('favGifs')!)).toEqual(['b1']);
    expect(localStorage.getItem('favGifsOwner')).toBe('u2');
  });

  it('never merges a copy that mirrors an account', async () => {
    localStorage.setItem('favGifs', JSON.stringify(['someoneElses']));
    localStorage.setItem('favGifsOwner', 'user-2');
    const api = stubApi({ 'GET /api/favorites': () => json({ success: true, ids: [] }) });
    renderFavorites();
    expect(await screen.findByText('No favourites')).toBeInTheDocument();
    expect(api.calls.map((call) => call.url)).toEqual(['/api/favorites']);
    expect(JSON.parse(localStorage.getItem('favGifs')!)).toEqual([]);
  });

  it('shows a failed load with a Retry that loads the favourites again', async () => {
    let isDown = true;
    stubApi({
      'GET /api/favorites': () =>
        isDown
          ? json(
              {
                success: false,
                error: { code: 'unavailable', message: 'The database is unavailable.' },
              },
              503,
            )
          : json({ success: true, ids: [] }),
    });
    renderFavorites();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The database is unavailable.');
    isDown = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('No favourites')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
