import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderInRouter } from '@/test-support/render.tsx';
import { AppRoutes } from './router.tsx';

vi.mock('@/features/home', () => ({ HomePage: () => <h1>Home screen</h1> }));
// The favorites screen's code is gone from the server, as after a deploy while a tab was open:
// the browser's own words when a lazy chunk cannot be fetched.
vi.mock('@/features/favorites', () => ({
  get FavoritesPage(): never {
    throw new TypeError(
      'Failed to fetch dynamically imported module: http://localhost:3000/assets/favorites-old.js',
    );
  },
}));

describe('a screen that fails', () => {
  it('says Sticky has been updated, inside the layout, with Reload and a way home', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    const { router } = renderInRouter(<AppRoutes />, { url: '/favorite' });

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Sticky has been updated' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Reload the page to get the new version.')).toBeInTheDocument();
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Reload' }));
    expect(reload).toHaveBeenCalledTimes(1);

    // The next address gets a fresh try.
    await userEvent.setup().click(screen.getByRole('link', { name: 'Go to the home page' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Home screen' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });
});
