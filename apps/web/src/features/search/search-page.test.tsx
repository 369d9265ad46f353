import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { getContentClient } from '@/features/content/content-client.ts';
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
import { SearchPage } from './search-page.tsx';

vi.mock('@/features/content/content-client.ts', () => ({ getContentClient: vi.fn() }));

describe.skipIf(!hasGiphyFixtures)('SearchPage', () => {
  let gf: FakeGiphyFetch;
  beforeEach(() => {
    gf = createFakeGiphyFetch();
    vi.mocked(getContentClient).mockResolvedValue(fakeContentClient(gf));
  });

  const renderSearch = (url: string) =>
    renderRoute(<SearchPage />, { path: '/search/:query', url });

  it('shows the query as heading, the switcher and the results', async () => {
    const results = loadList(fixtureFiles.search);
    gf.search.mockResolvedValue(results);
    renderSearch('/search/always%20sunny');
    expect(screen.getByRole('heading', { level: 1, name: 'always sunny' })).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Content type' })).toBeInTheDocument();
    const grid = await screen.findByRole('list', { name: 'Results for always sunny' });
    expect(within(grid).getAllByRole('link')).toHaveLength(results.data.length);
    expect(gf.search).toHaveBeenCalledWith('always sunny', {
      limit: 25,
      offset: 0,
      type: 'gifs',
      lang: 'en',
      sort: 'relevant',
      rating: 'pg-13',
    });
  });

  it('says exactly what the spec says when nothing is found', async () => {
    gf.search.mockResolvedValue(listOf([]));
    renderSearch('/search/qwertyuiop');
    expect(
      await screen.findByText('No Gifs found for qwertyuiop. Try searching for Stickers instead?'),
    ).toBeInTheDocument();
  });

  it('searches stickers when the switcher says so, keeping the query', async () => {
    gf.search.mockResolvedValue(loadList(fixtureFiles.search));
    const { router } = renderSearch('/search/cat');
    await screen.findByRole('list', { name: 'Results for cat' });
    await userEvent.click(screen.getByRole('button', { name: 'Stickers' }));
    expect(router.state.location.pathname).toBe('/search/cat');
    expect(router.state.location.search).toBe('?type=stickers');
    await waitFor(() =>
      expect(gf.search).toHaveBeenLastCalledWith(
        'cat',
        expect.objectContaining({ type: 'stickers', offset: 0 }),
      ),
    );
  });

  it('takes the filter from the URL it was opened with', async () => {
    gf.search.mockResolvedValue(loadList(fixtureFiles.search));
    renderSearch('/search/dance?type=text');
    await waitFor(() =>
      expect(gf.search).toHaveBeenCalledWith('dance', expect.objectContaining({ type: 'text' })),
    );
    expect(screen.getByRole('button', { name: 'Text' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('shows the client’s error with a Retry', async () => {
    gf.search.mockRejectedValueOnce(new Error('@giphy/js-fetch-api: Bad Request: q is too long'));
    renderSearch('/search/x');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('@giphy/js-fetch-api: Bad Request: q is too long');
    expect(within(alert).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });
});
