import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setUpFakeContent } from '@/test-support/content.ts';
import { categoryFixtures, listOf } from '@/test-support/giphy-fixtures.ts';
import { renderRoute } from '@/test-support/render.tsx';
import { CategoriesPanel } from './categories-panel.tsx';

describe('CategoriesPanel', () => {
  const content = setUpFakeContent();
  beforeEach(() => {
    content.gf.categories.mockResolvedValue(listOf(categoryFixtures as never));
  });

  it('links every category name to its encoded name and reports the navigation', async () => {
    const onNavigate = vi.fn();
    const { router } = renderRoute(<CategoriesPanel onNavigate={onNavigate} />, {
      path: '/',
      url: '/',
      content,
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
    content.gf.categories
      .mockReset()
      .mockResolvedValueOnce(listOf(many.slice(0, 50) as never, { total_count: 60 }))
      .mockResolvedValueOnce(listOf(many.slice(50) as never, { total_count: 60, offset: 50 }));
    renderRoute(<CategoriesPanel />, { path: '/', url: '/', content });
    const nav = await screen.findByRole('navigation', { name: 'Categories' });
    expect(within(nav).getAllByRole('link')).toHaveLength(60);
    expect(content.gf.categories).toHaveBeenLastCalledWith({ limit: 50, offset: 50 });
  });

  it('shows a failure with a Retry that loads the list again', async () => {
    content.gf.categories
      .mockReset()
      .mockRejectedValueOnce(new Error('@giphy/js-fetch-api: Error fetching'))
      .mockResolvedValueOnce(listOf(categoryFixtures as never));
    renderRoute(<CategoriesPanel />, { path: '/', url: '/', content });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('@giphy/js-fetch-api: Error fetching');
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    const nav = await screen.findByRole('navigation', { name: 'Categories' });
    expect(within(nav).getAllByRole('link')).toHaveLength(categoryFixtures.length);
    expect(content.gf.categories).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
