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
  categoryFixtures,
  fixtureFiles,
  hasGiphyFixtures,
  listOf,
  loadList,
} from '@/features/content/test-support/giphy-fixtures.ts';
import { renderRoute } from '@/features/content/test-support/render.tsx';
import { CategoriesPanel } from './categories-panel.tsx';
import { Component as CategoryPage } from './category-route.tsx';

vi.mock('@/features/content/content-client.ts', () => ({ getContentClient: vi.fn() }));

describe.skipIf(!hasGiphyFixtures)('categories', () => {
  let gf: FakeGiphyFetch;
  let client: ReturnType<typeof fakeContentClient>;
  beforeEach(() => {
    gf = createFakeGiphyFetch();
    client = fakeContentClient(gf);
    vi.mocked(getContentClient).mockResolvedValue(client);
    gf.categories.mockResolvedValue(listOf(categoryFixtures as never));
  });

  describe('CategoriesPanel', () => {
    it('links every category name to its encoded name and reports the navigation', async () => {
      const onNavigate = vi.fn();
      const { router } = renderRoute(<CategoriesPanel onNavigate={onNavigate} />, {
        path: '/',
        url: '/',
      });
      const nav = await screen.findByRole('navigation', { name: 'Categories' });
      const links = within(nav).getAllByRole('link');
      expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
        ['Reactions', '/reactions'],
        ['news & politics', '/news-politics'],
      ]);
      await userEvent.click(links[1]!);
      expect(onNavigate).toHaveBeenCalledTimes(1);
      expect(router.state.location.pathname).toBe('/news-politics');
    });

    it('reads every page of a long category list', async () => {
      const many = Array.from({ length: 60 }, (_, i) => ({
        name: `c${i}`,
        name_encoded: `c${i}`,
        subcategories: [],
      }));
      gf.categories
        .mockReset()
        .mockResolvedValueOnce(listOf(many.slice(0, 50) as never, { total_count: 60 }))
        .mockResolvedValueOnce(listOf(many.slice(50) as never, { total_count: 60, offset: 50 }));
      renderRoute(<CategoriesPanel />, { path: '/', url: '/' });
      const nav = await screen.findByRole('navigation', { name: 'Categories' });
      expect(within(nav).getAllByRole('link')).toHaveLength(60);
      expect(gf.categories).toHaveBeenLastCalledWith({ limit: 50, offset: 50 });
    });

    it('shows a failure with Retry', async () => {
      gf.categories.mockReset().mockRejectedValue(new Error('@giphy/js-fetch-api: Error fetching'));
      renderRoute(<CategoriesPanel />, { path: '/', url: '/' });
      expect(await screen.findByRole('alert')).toHaveTextContent(
        '@giphy/js-fetch-api: Error fetching',
      );
    });
  });

  describe('category page', () => {
    const renderCategory = (url: string) =>
      renderRoute(<CategoryPage />, { path: '/:category', url });

    it('shows the name, the subcategories as links on the same page, and the items', async () => {
      gf.subcategories.mockResolvedValue(listOf(categoryFixtures[0]!.subcategories as never));
      gf.gifs.mockResolvedValue(loadList(fixtureFiles.search));
      const { router } = renderCategory('/reactions');

      expect(
        await screen.findByRole('heading', { level: 1, name: 'Reactions' }),
      ).toBeInTheDocument();
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
      expect(gf.gifs).toHaveBeenCalledWith('reactions', 'happy');
      expect(client.withParams).toHaveBeenCalledWith({ limit: '25', offset: '0' });

      await userEvent.click(links[1]!);
      expect(router.state.location.pathname).toBe('/reactions');
      expect(router.state.location.search).toBe('?sub=thumbs-up');
      await waitFor(() => expect(gf.gifs).toHaveBeenLastCalledWith('reactions', 'thumbs-up'));
      expect(within(nav).getAllByRole('link')[1]).toHaveAttribute('aria-current', 'page');
    });

    it('says so when the category has no subcategories', async () => {
      gf.subcategories.mockResolvedValue(listOf([]));
      renderCategory('/news-politics');
      expect(
        await screen.findByRole('heading', { level: 1, name: 'news & politics' }),
      ).toBeInTheDocument();
      expect(await screen.findByText('This category has nothing in it yet.')).toBeInTheDocument();
    });

    it('shows the error of an unknown category with Retry', async () => {
      gf.subcategories.mockRejectedValue(new Error('@giphy/js-fetch-api: Not Found'));
      renderCategory('/nope');
      expect(await screen.findByRole('alert')).toHaveTextContent('@giphy/js-fetch-api: Not Found');
    });
  });
});
