import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { setUpFakeContent } from '@/test-support/content.ts';
import { categoryFixtures, fixtureFiles, listOf, loadList } from '@/test-support/giphy-fixtures.ts';
import { renderRoute } from '@/test-support/render.tsx';
import { CategoryPage } from './category-page.tsx';

describe('category page', () => {
  const content = setUpFakeContent();
  beforeEach(() => {
    content.gf.categories.mockResolvedValue(listOf(categoryFixtures as never));
  });

  const renderCategory = (url: string) =>
    renderRoute(<CategoryPage />, { path: '/:category', url, content });

  it('shows the name, the subcategories as links on the same page, and the items', async () => {
    content.gf.subcategories.mockResolvedValue(listOf(categoryFixtures[0]!.subcategories as never));
    content.gf.gifs.mockResolvedValue(loadList(fixtureFiles.search));
    const { router } = renderCategory('/reactions');

    expect(await screen.findByRole('heading', { level: 1, name: 'Reactions' })).toBeInTheDocument();
    const nav = await screen.findByRole('navigation', { name: 'Reactions subcategories' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/reactions?sub=happy',
      '/reactions?sub=thumbs-up',
    ]);
    // Without a choice the first subcategory is shown.
    expect(links[0]).toHaveAttribute('aria-current', 'page');
    const grid = await screen.findByRole('list', { name: 'Reactions: happy' });
    expect(within(grid).getAllByRole('link')).toHaveLength(5);
    expect(content.gf.gifs).toHaveBeenCalledWith('reactions', 'happy');
    expect(content.client.withParams).toHaveBeenCalledWith({ limit: '25', offset: '0' });

    await userEvent.click(links[1]!);
    expect(router.state.location.pathname).toBe('/reactions');
    expect(router.state.location.search).toBe('?sub=thumbs-up');
    await waitFor(() => expect(content.gf.gifs).toHaveBeenLastCalledWith('reactions', 'thumbs-up'));
    expect(within(nav).getAllByRole('link')[1]).toHaveAttribute('aria-current', 'page');
  });

  it('says so when the category has no subcategories', async () => {
    content.gf.subcategories.mockResolvedValue(listOf([]));
    renderCategory('/news-politics');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'news & politics' }),
    ).toBeInTheDocument();
    expect(await screen.findByText('This category has nothing in it yet.')).toBeInTheDocument();
  });

  it('shows why the subcategories failed, with a Retry that asks again', async () => {
    content.gf.subcategories
      .mockRejectedValueOnce(new Error('@giphy/js-fetch-api: Error fetching'))
      .mockResolvedValueOnce(listOf(categoryFixtures[0]!.subcategories as never));
    content.gf.gifs.mockResolvedValue(loadList(fixtureFiles.search));
    renderCategory('/reactions');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('@giphy/js-fetch-api: Error fetching');
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(
      await screen.findByRole('navigation', { name: 'Reactions subcategories' }),
    ).toBeInTheDocument();
    expect(content.gf.subcategories).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
