import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getContentClient } from '@/features/content/content-client.ts';
import {
  createFakeGiphyFetch,
  fakeContentClient,
  giphyConfig,
} from '@/features/content/test-support/content-client-mock.ts';
import type { FakeGiphyFetch } from '@/features/content/test-support/content-client-mock.ts';
import {
  fixtureFiles,
  hasGiphyFixtures,
  listOf,
  loadList,
  missingFixturesMessage,
} from '@/features/content/test-support/giphy-fixtures.ts';
import {
  installIntersectionObserver,
  installMatchMedia,
  renderRoute,
} from '@/features/content/test-support/render.tsx';
import { HomePage } from './home-page.tsx';

vi.mock('@/features/content/content-client.ts', () => ({ getContentClient: vi.fn() }));

if (!hasGiphyFixtures) console.warn(missingFixturesMessage);

describe.skipIf(!hasGiphyFixtures)('HomePage', () => {
  let gf: FakeGiphyFetch;
  beforeEach(() => {
    gf = createFakeGiphyFetch();
    vi.mocked(getContentClient).mockResolvedValue(fakeContentClient(gf));
  });

  const renderHome = (url = '/') => renderRoute(<HomePage />, { path: '/', url });

  it('shows the banner, the Trending label, the switcher and trending GIFs as links', async () => {
    const trending = loadList(fixtureFiles.trending);
    gf.trending.mockResolvedValue(trending);
    renderHome();

    expect(screen.getByRole('img', { name: /Sticky/ })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Trending' })).toBeInTheDocument();
    const switcher = screen.getByRole('group', { name: 'Content type' });
    expect(within(switcher).getByRole('button', { name: 'GIFs' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(within(switcher).getByRole('button', { name: 'Stickers' })).toBeInTheDocument();
    expect(within(switcher).getByRole('button', { name: 'Text' })).toBeInTheDocument();

    const grid = await screen.findByRole('list', { name: 'Trending' });
    const links = within(grid).getAllByRole('link');
    expect(links).toHaveLength(25);
    const first = trending.data[0]!;
    expect(links[0]).toHaveAttribute('href', `/gif/${first.slug}`);
    // alt text falls back to the title, every image has one
    expect(within(links[0]!).getByRole('img')).toHaveAttribute('alt', first.title);
    expect(gf.trending).toHaveBeenCalledWith({ limit: 25, offset: 0, type: 'gifs', rating: 'g' });
  });

  it('loads fixed_width WebP with the GIF as fallback, the first row at once and the rest lazily, in a box of the right shape', async () => {
    const trending = loadList(fixtureFiles.trending);
    gf.trending.mockResolvedValue(trending);
    const { container } = renderHome();
    await screen.findByRole('list', { name: 'Trending' });
    const first = trending.data[0]!;
    const source = container.querySelector('picture source');
    expect(source).toHaveAttribute('type', 'image/webp');
    expect(source).toHaveAttribute('srcset', first.images.fixed_width.webp);
    const img = container.querySelector('picture img');
    expect(img).toHaveAttribute('src', first.images.fixed_width.url);
    // The first row is the largest paint: fetched at once, first.
    expect(img).toHaveAttribute('loading', 'eager');
    expect(img).toHaveAttribute('fetchpriority', 'high');
    const images = [...container.querySelectorAll('picture img')];
    const firstRow = images.filter((image) => image.getAttribute('loading') === 'eager');
    expect(firstRow.length).toBeGreaterThan(0);
    expect(firstRow.length).toBeLessThan(images.length);
    expect(images.at(-1)).toHaveAttribute('loading', 'lazy');
    expect(images.at(-1)).toHaveAttribute('fetchpriority', 'auto');
    const ratio = first.images.fixed_width.width / first.images.fixed_width.height;
    expect(screen.getAllByTestId('gif-tile')[0]!.style.aspectRatio).toBe(String(ratio));
  });

  it('refetches with the chosen type and keeps it in the URL', async () => {
    gf.trending.mockResolvedValue(loadList(fixtureFiles.search));
    const { router } = renderHome();
    await screen.findByRole('list', { name: 'Trending' });

    await userEvent.click(screen.getByRole('button', { name: 'Stickers' }));
    expect(router.state.location.search).toBe('?type=stickers');
    await waitFor(() =>
      expect(gf.trending).toHaveBeenLastCalledWith({
        limit: 25,
        offset: 0,
        type: 'stickers',
        rating: 'g',
      }),
    );
    expect(screen.getByRole('button', { name: 'Stickers' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );

    await userEvent.click(screen.getByRole('button', { name: 'Text' }));
    expect(router.state.location.search).toBe('?type=text');
    await waitFor(() =>
      expect(gf.trending).toHaveBeenLastCalledWith(expect.objectContaining({ type: 'text' })),
    );

    await userEvent.click(screen.getByRole('button', { name: 'GIFs' }));
    expect(router.state.location.search).toBe('');
  });

  it('reads the type from the URL and ignores values it does not know', async () => {
    gf.trending.mockResolvedValue(loadList(fixtureFiles.search));
    renderHome('/?type=text');
    await waitFor(() =>
      expect(gf.trending).toHaveBeenCalledWith(expect.objectContaining({ type: 'text' })),
    );
  });

  it('falls back to GIFs for an unknown type in the URL', async () => {
    gf.trending.mockResolvedValue(loadList(fixtureFiles.search));
    renderHome('/?type=videos');
    await waitFor(() =>
      expect(gf.trending).toHaveBeenCalledWith(expect.objectContaining({ type: 'gifs' })),
    );
  });

  it('shows the client’s error message in the grid’s place, and Retry loads again', async () => {
    gf.trending.mockRejectedValueOnce(new Error('@giphy/js-fetch-api: Error fetching'));
    renderHome();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('@giphy/js-fetch-api: Error fetching');
    gf.trending.mockResolvedValueOnce(loadList(fixtureFiles.search));
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('list', { name: 'Trending' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows stills with reduced motion and animates a tile on hover and on focus', async () => {
    const restore = installMatchMedia(['(prefers-reduced-motion: reduce)']);
    try {
      const trending = loadList(fixtureFiles.trending);
      gf.trending.mockResolvedValue(trending);
      renderHome();
      const grid = await screen.findByRole('list', { name: 'Trending' });
      const first = trending.data[0]!;
      const tile = within(grid).getAllByRole('link')[0]!;
      const img = () => within(tile).getByRole('img');
      expect(img()).toHaveAttribute('src', first.images.fixed_width_still.url);
      expect(tile.querySelector('source')).toBeNull();

      await userEvent.hover(tile);
      expect(img()).toHaveAttribute('src', first.images.fixed_width.url);
      expect(tile.querySelector('source')).toHaveAttribute('srcset', first.images.fixed_width.webp);
      await userEvent.unhover(tile);
      expect(img()).toHaveAttribute('src', first.images.fixed_width_still.url);

      tile.focus();
      await waitFor(() => expect(img()).toHaveAttribute('src', first.images.fixed_width.url));
    } finally {
      restore();
    }
  });

  it('lays the grid out in 4 columns on large screens and 2 on small ones', async () => {
    gf.trending.mockResolvedValue(loadList(fixtureFiles.trending));
    const restore = installMatchMedia(['(min-width: 64rem)', '(min-width: 48rem)']);
    const large = renderHome();
    let grid = await screen.findByRole('list', { name: 'Trending' });
    const lefts = (list: HTMLElement) =>
      new Set([...list.querySelectorAll('li')].map((item) => item.style.left));
    expect(lefts(grid).size).toBe(4);
    expect(document.title).toBe('Trending · Sticky');
    large.unmount();
    restore();

    const restoreSmall = installMatchMedia([]);
    renderHome();
    grid = await screen.findByRole('list', { name: 'Trending' });
    expect(lefts(grid).size).toBe(2);
    restoreSmall();
  });

  it('says Powered by GIPHY only when the content comes from GIPHY', async () => {
    gf.trending.mockResolvedValue(loadList(fixtureFiles.search));
    const local = renderHome();
    await screen.findByRole('list', { name: 'Trending' });
    expect(screen.queryByText('Powered by GIPHY')).not.toBeInTheDocument();
    local.unmount();

    vi.mocked(getContentClient).mockResolvedValue(fakeContentClient(gf, giphyConfig));
    renderHome();
    expect(await screen.findByText('Powered by GIPHY')).toBeInTheDocument();
  });

  describe('infinite scroll', () => {
    let io: ReturnType<typeof installIntersectionObserver>;
    beforeEach(() => {
      io = installIntersectionObserver();
    });
    afterEach(() => io.restore());

    it('loads the next page at the end, never shows an id twice and stops at total_count', async () => {
      const page = loadList(fixtureFiles.trending);
      const firstPage = listOf(page.data.slice(0, 25), { total_count: 30, offset: 0 });
      // The second page repeats two items of the first, as GIPHY sometimes does.
      const secondItems = [...page.data.slice(0, 2), ...loadList(fixtureFiles.search).data];
      const secondPage = listOf(secondItems, { total_count: 30, offset: 25, count: 5 });
      gf.trending.mockResolvedValueOnce(firstPage).mockResolvedValueOnce(secondPage);
      renderHome();
      const grid = await screen.findByRole('list', { name: 'Trending' });
      expect(within(grid).getAllByRole('link')).toHaveLength(25);

      io.revealAll();
      await waitFor(() => expect(within(grid).getAllByRole('link')).toHaveLength(30));
      expect(gf.trending).toHaveBeenLastCalledWith(expect.objectContaining({ offset: 25 }));
      const hrefs = within(grid)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href'));
      expect(new Set(hrefs).size).toBe(hrefs.length);

      io.revealAll();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(gf.trending).toHaveBeenCalledTimes(2);
    });

    it('keeps what is shown when a later page fails, with the message and a Retry', async () => {
      const page = loadList(fixtureFiles.trending);
      gf.trending
        .mockResolvedValueOnce(listOf(page.data, { total_count: 100 }))
        .mockRejectedValueOnce(new Error('@giphy/js-fetch-api: API rate limit exceeded'))
        .mockResolvedValueOnce(
          listOf(loadList(fixtureFiles.search).data, { total_count: 30, offset: 25 }),
        );
      renderHome();
      const grid = await screen.findByRole('list', { name: 'Trending' });
      io.revealAll();
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent('@giphy/js-fetch-api: API rate limit exceeded');
      expect(within(grid).getAllByRole('link')).toHaveLength(25);
      await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
      await waitFor(() => expect(within(grid).getAllByRole('link')).toHaveLength(30));
    });
  });
});
