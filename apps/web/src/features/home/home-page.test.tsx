import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { createFakeContent, giphyConfig, setUpFakeContent } from '@/test-support/content.ts';
import type { FakeContent } from '@/test-support/content.ts';
import { installDom, installIntersectionObserver } from '@/test-support/dom.ts';
import { fixtureFiles, listOf, loadList } from '@/test-support/giphy-fixtures.ts';
import { renderRoute } from '@/test-support/render.tsx';
import { HomePage } from './home-page.tsx';

describe('HomePage', () => {
  const content = setUpFakeContent();
  const renderHome = (url = '/', source: FakeContent = content) =>
    renderRoute(<HomePage />, { path: '/', url, content: source });

  it('shows the banner, the Trending label, the switcher and trending GIFs as links', async () => {
    const trending = loadList(fixtureFiles.trending);
    content.gf.trending.mockResolvedValue(trending);
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
    expect(content.gf.trending).toHaveBeenCalledWith({
      limit: 25,
      offset: 0,
      type: 'gifs',
      rating: 'g',
    });
  });

  it('shows a reactions strip between the banner and Trending, each chip its search in the type shown', async () => {
    content.gf.trending.mockResolvedValue(loadList(fixtureFiles.trending));
    const { router } = renderHome('/?type=stickers');
    const strip = screen.getByRole('navigation', { name: 'Reactions' });
    const chips = within(strip).getAllByRole('link');
    expect(chips.map((chip) => chip.textContent)).toEqual(
      expect.arrayContaining(['😀happy', '😢sad', '😂laugh', '🙏thank you']),
    );
    expect(within(strip).getByRole('link', { name: 'thank you' })).toHaveAttribute(
      'href',
      '/search/thank%20you?type=stickers',
    );
    // Banner, strip, then the Trending label: the rest of the home page as the spec has it.
    const banner = screen.getByRole('img', { name: /Sticky/ });
    const heading = screen.getByRole('heading', { name: 'Trending' });
    expect(banner.compareDocumentPosition(strip) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(strip.compareDocumentPosition(heading) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await userEvent.click(within(strip).getByRole('link', { name: 'laugh' }));
    expect(router.state.location.pathname).toBe('/search/laugh');
  });

  it('loads fixed_width WebP with the GIF as fallback, the first row at once and the rest lazily, in a box of the right shape', async () => {
    const trending = loadList(fixtureFiles.trending);
    content.gf.trending.mockResolvedValue(trending);
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
    content.gf.trending.mockResolvedValue(loadList(fixtureFiles.search));
    const { router } = renderHome();
    await screen.findByRole('list', { name: 'Trending' });

    await userEvent.click(screen.getByRole('button', { name: 'Stickers' }));
    expect(router.state.location.search).toBe('?type=stickers');
    await waitFor(() =>
      expect(content.gf.trending).toHaveBeenLastCalledWith({
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
      expect(content.gf.trending).toHaveBeenLastCalledWith(
        expect.objectContaining({ type: 'text' }),
      ),
    );

    await userEvent.click(screen.getByRole('button', { name: 'GIFs' }));
    expect(router.state.location.search).toBe('');
  });

  it('reads the type from the URL and ignores values it does not know', async () => {
    content.gf.trending.mockResolvedValue(loadList(fixtureFiles.search));
    const known = renderHome('/?type=text');
    await screen.findByRole('list', { name: 'Trending' });
    expect(content.gf.trending).toHaveBeenCalledWith(expect.objectContaining({ type: 'text' }));
    expect(screen.getByRole('button', { name: 'Text' })).toHaveAttribute('aria-pressed', 'true');
    known.unmount();

    content.gf.trending.mockClear();
    renderHome('/?type=videos');
    await screen.findByRole('list', { name: 'Trending' });
    // An unknown type is never sent; the default is asked for and shown as chosen.
    expect(content.gf.trending).toHaveBeenCalledTimes(1);
    expect(content.gf.trending).toHaveBeenCalledWith(expect.objectContaining({ type: 'gifs' }));
    expect(screen.getByRole('button', { name: 'GIFs' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Text' })).toHaveAttribute('aria-pressed', 'false');
  });

  it('shows the client’s error message in the grid’s place, and Retry loads again', async () => {
    content.gf.trending.mockRejectedValueOnce(new Error('@giphy/js-fetch-api: Error fetching'));
    renderHome();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('@giphy/js-fetch-api: Error fetching');
    content.gf.trending.mockResolvedValueOnce(loadList(fixtureFiles.search));
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('list', { name: 'Trending' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows stills with reduced motion and animates a tile on hover and on focus', async () => {
    installDom(['(prefers-reduced-motion: reduce)']);
    const trending = loadList(fixtureFiles.trending);
    content.gf.trending.mockResolvedValue(trending);
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
  });

  // 2 columns on small screens, 3 from Tailwind's md (48rem), 4 from lg (64rem).
  it.each([
    ['large', 4, ['(min-width: 64rem)', '(min-width: 48rem)']],
    ['medium', 3, ['(min-width: 48rem)']],
    ['small', 2, []],
  ])('lays the grid out on %s screens in %i columns', async (_size, columns, queries) => {
    installDom(queries);
    content.gf.trending.mockResolvedValue(loadList(fixtureFiles.trending));
    renderHome();
    const grid = await screen.findByRole('list', { name: 'Trending' });
    const tiles = [...grid.querySelectorAll('li')];
    expect(new Set(tiles.map((tile) => tile.style.left)).size).toBe(columns);
    // Each column as wide as that many fit across the grid, with 1.5% gaps between them.
    const expectedWidth = (100 - 1.5 * (columns - 1)) / columns;
    for (const tile of tiles) expect(parseFloat(tile.style.width)).toBeCloseTo(expectedWidth);
    expect(document.title).toBe('Trending · Sticky');
  });

  it('says Powered by GIPHY only when the content comes from GIPHY', async () => {
    content.gf.trending.mockResolvedValue(loadList(fixtureFiles.search));
    const local = renderHome();
    await screen.findByRole('list', { name: 'Trending' });
    expect(screen.queryByText('Powered by GIPHY')).not.toBeInTheDocument();
    local.unmount();

    renderHome('/', createFakeContent(giphyConfig, content.gf));
    expect(await screen.findByText('Powered by GIPHY')).toBeInTheDocument();
  });

  describe('infinite scroll', () => {
    let io: ReturnType<typeof installIntersectionObserver>;
    beforeEach(() => {
      io = installIntersectionObserver();
    });

    it('loads the next page at the end, never shows an id twice and stops at total_count', async () => {
      const page = loadList(fixtureFiles.trending);
      const firstPage = listOf(page.data.slice(0, 25), { total_count: 30, offset: 0 });
      // The second page repeats two items of the first, as GIPHY sometimes does.
      const secondItems = [...page.data.slice(0, 2), ...loadList(fixtureFiles.search).data];
      const secondPage = listOf(secondItems, { total_count: 30, offset: 25, count: 5 });
      content.gf.trending.mockResolvedValueOnce(firstPage).mockResolvedValueOnce(secondPage);
      renderHome();
      const grid = await screen.findByRole('list', { name: 'Trending' });
      expect(within(grid).getAllByRole('link')).toHaveLength(25);

      io.revealAll();
      await waitFor(() => expect(within(grid).getAllByRole('link')).toHaveLength(30));
      expect(content.gf.trending).toHaveBeenLastCalledWith(expect.objectContaining({ offset: 25 }));
      const hrefs = within(grid)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href'));
      expect(new Set(hrefs).size).toBe(hrefs.length);

      // At total_count the grid stops watching its end: reaching it asks for nothing more.
      await waitFor(() => expect(io.isObserved(screen.getByTestId('grid-end'))).toBe(false));
      io.revealAll();
      expect(content.gf.trending).toHaveBeenCalledTimes(2);
      expect(screen.queryByRole('status', { name: 'Loading more…' })).not.toBeInTheDocument();
    });

    it('keeps what is shown when a later page fails, with the message and a Retry', async () => {
      const page = loadList(fixtureFiles.trending);
      content.gf.trending
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
