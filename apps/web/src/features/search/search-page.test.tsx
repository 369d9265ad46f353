import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { setUpFakeContent } from '@/test-support/content.ts';
import { fixtureFiles, listOf, loadList } from '@/test-support/giphy-fixtures.ts';
import { renderRoute } from '@/test-support/render.tsx';
import { SearchPage } from './search-page.tsx';

describe('SearchPage', () => {
  const content = setUpFakeContent();
  const renderSearch = (url: string) =>
    renderRoute(<SearchPage />, { path: '/search/:query', url, content });

  it('shows the query as heading, the switcher and the results', async () => {
    const results = loadList(fixtureFiles.search);
    content.gf.search.mockResolvedValue(results);
    renderSearch('/search/always%20sunny');
    expect(screen.getByRole('heading', { level: 1, name: 'always sunny' })).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Content type' })).toBeInTheDocument();
    const grid = await screen.findByRole('list', { name: 'Results for always sunny' });
    expect(within(grid).getAllByRole('link')).toHaveLength(results.data.length);
    expect(content.gf.search).toHaveBeenCalledWith('always sunny', {
      limit: 25,
      offset: 0,
      type: 'gifs',
      lang: 'en',
      sort: 'relevant',
      rating: 'pg-13',
    });
  });

  it('says exactly what the spec says when nothing is found', async () => {
    content.gf.search.mockResolvedValue(listOf([]));
    renderSearch('/search/qwertyuiop');
    const link = await screen.findByRole('link', { name: 'Try searching for Stickers instead?' });
    expect(link.closest('p')).toHaveTextContent(
      /^No Gifs found for qwertyuiop\. Try searching for Stickers instead\?$/,
    );
  });

  it('searches stickers for the same query from the empty result’s question', async () => {
    content.gf.search.mockResolvedValue(listOf([]));
    const { router } = renderSearch('/search/qwerty%20uiop');
    await userEvent.click(
      await screen.findByRole('link', { name: 'Try searching for Stickers instead?' }),
    );
    expect(router.state.location.pathname).toBe('/search/qwerty%20uiop');
    expect(router.state.location.search).toBe('?type=stickers');
    await waitFor(() =>
      expect(content.gf.search).toHaveBeenLastCalledWith(
        'qwerty uiop',
        expect.objectContaining({ type: 'stickers' }),
      ),
    );
    expect(screen.getByRole('button', { name: 'Stickers' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  });

  it('searches stickers when the switcher says so, keeping the query', async () => {
    content.gf.search.mockResolvedValue(loadList(fixtureFiles.search));
    const { router } = renderSearch('/search/cat');
    await screen.findByRole('list', { name: 'Results for cat' });
    await userEvent.click(screen.getByRole('button', { name: 'Stickers' }));
    expect(router.state.location.pathname).toBe('/search/cat');
    expect(router.state.location.search).toBe('?type=stickers');
    await waitFor(() =>
      expect(content.gf.search).toHaveBeenLastCalledWith(
        'cat',
        expect.objectContaining({ type: 'stickers', offset: 0 }),
      ),
    );
  });

  it('takes the filter from the URL it was opened with', async () => {
    content.gf.search.mockResolvedValue(loadList(fixtureFiles.search));
    renderSearch('/search/dance?type=text');
    await waitFor(() =>
      expect(content.gf.search).toHaveBeenCalledWith(
        'dance',
        expect.objectContaining({ type: 'text' }),
      ),
    );
    expect(screen.getByRole('button', { name: 'Text' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('shows the client’s error with a Retry that searches again', async () => {
    content.gf.search
      .mockRejectedValueOnce(new Error('@giphy/js-fetch-api: Error fetching'))
      .mockResolvedValueOnce(loadList(fixtureFiles.search));
    renderSearch('/search/x');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('@giphy/js-fetch-api: Error fetching');
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('list', { name: 'Results for x' })).toBeInTheDocument();
    expect(content.gf.search).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
