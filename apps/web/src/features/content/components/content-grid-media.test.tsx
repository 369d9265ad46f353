import { infiniteQueryOptions } from '@tanstack/react-query';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installDom } from '@/test-support/dom.ts';
import { fixtureFiles, loadList } from '@/test-support/giphy-fixtures.ts';
import { renderInRouter } from '@/test-support/render.tsx';
import type { ContentItem, ContentPage } from '../content-types.ts';
import { nearMargin } from '../media/tile-observer.ts';
import { ContentGrid } from './content-grid.tsx';

/**
 * An IntersectionObserver the test drives: it knows its margin, so a tile can be put on
 * screen (both of the grid's tile observers see it), near it (only the wider one) or far away.
 */
class FakeIntersectionObserver {
  static all = new Set<FakeIntersectionObserver>();
  readonly targets = new Set<Element>();
  readonly rootMargin: string;
  constructor(
    private readonly callback: IntersectionObserverCallback,
    options?: IntersectionObserverInit,
  ) {
    this.rootMargin = options?.rootMargin ?? '0px';
    FakeIntersectionObserver.all.add(this);
  }
  observe(target: Element) {
    this.targets.add(target);
  }
  unobserve(target: Element) {
    this.targets.delete(target);
  }
  disconnect() {
    this.targets.clear();
  }
  takeRecords() {
    return [];
  }
  deliver(target: Element, isIntersecting: boolean) {
    this.callback(
      [{ target, isIntersecting } as IntersectionObserverEntry],
      this as unknown as IntersectionObserver,
    );
  }
}

type Place = 'on screen' | 'near' | 'far';

/** Moves a tile, and waits for what it starts: a video starts in a task of its own. */
async function moveTile(tile: Element, place: Place) {
  act(() => {
    for (const observer of FakeIntersectionObserver.all) {
      if (!observer.targets.has(tile)) continue;
      const isNearObserver = observer.rootMargin === nearMargin;
      observer.deliver(tile, place === 'on screen' || (isNearObserver && place === 'near'));
    }
  });
  await act(() => new Promise((resolve) => setTimeout(resolve)));
}

function observersOf(element: Element) {
  return [...FakeIntersectionObserver.all].filter((observer) => observer.targets.has(element));
}

const played: HTMLMediaElement[] = [];
const paused: HTMLMediaElement[] = [];
const reloaded: HTMLMediaElement[] = [];

/** A browser that plays MP4 and WebM as asked, and is not WebKit (which drops WebM's alpha). */
function stubVideo({ mp4 = true, webm = true } = {}) {
  vi.spyOn(navigator, 'vendor', 'get').mockReturnValue('Google Inc.');
  vi.spyOn(HTMLMediaElement.prototype, 'canPlayType').mockImplementation((type: string) =>
    (type.startsWith('video/mp4') && mp4) || (type.startsWith('video/webm') && webm)
      ? 'probably'
      : '',
  );
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (
    this: HTMLMediaElement,
  ) {
    played.push(this);
    return Promise.resolve();
  });
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(function (
    this: HTMLMediaElement,
  ) {
    paused.push(this);
  });
  vi.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(function (
    this: HTMLMediaElement,
  ) {
    reloaded.push(this);
  });
}

function renderGrid(items: ContentItem[]) {
  const query = infiniteQueryOptions({
    queryKey: ['test-grid', items.map((item) => item.id).join()],
    queryFn: (): ContentPage => ({ items, nextOffset: undefined }),
    initialPageParam: 0,
    getNextPageParam: () => undefined,
  });
  return renderInRouter(
    <ContentGrid
      query={query}
      columns={{ small: 2, medium: 3, large: 4 }}
      emptyState={<p>Nothing</p>}
      label="Grid"
    />,
    { url: '/' },
  );
}

const tiles = () => screen.getAllByTestId('gif-tile');
const videoOf = (tile: Element) => tile.querySelector('video');
const mp4Of = (item: ContentItem) => (item.images.fixed_width as { mp4?: string }).mp4;

describe('the grid’s media', () => {
  beforeEach(() => {
    FakeIntersectionObserver.all.clear();
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
    played.length = 0;
    paused.length = 0;
    reloaded.length = 0;
  });
  afterEach(() => {
    // Unmounted while the media stubs stand: jsdom has no media playback of its own.
    cleanup();
    vi.restoreAllMocks();
  });

  it('plays a GIF tile as a muted, looping, inline video over its still, named like its image', async () => {
    stubVideo();
    const gifs = loadList(fixtureFiles.trending).data;
    renderGrid(gifs);
    await screen.findByRole('list', { name: 'Grid' });
    const first = tiles()[0]!;
    const video = videoOf(first)!;
    expect(video).not.toBeNull();
    expect(video.getAttribute('src')).toBe(mp4Of(gifs[0]!));
    expect(video.getAttribute('poster')).toBe(gifs[0]!.images.fixed_width_still.url);
    expect(video.muted).toBe(true);
    expect(video.loop).toBe(true);
    expect(video.playsInline).toBe(true);
    expect(video.controls).toBe(false);
    // Named as the image it replaces: the link's name is the item's alt text.
    expect(within(first).getByRole('img', { name: gifs[0]!.title })).toContainElement(video);
    expect(first).toHaveAccessibleName(gifs[0]!.title);
    // Nothing plays before the observer has seen it on screen, and nothing loads but the poster.
    expect(played).not.toContain(video);
    expect(video.getAttribute('preload')).toBe('none');
  });

  it('plays only the tiles on screen, pauses those that leave it, releases those far away and loads them again when near', async () => {
    stubVideo();
    const gifs = loadList(fixtureFiles.trending).data;
    renderGrid(gifs);
    await screen.findByRole('list', { name: 'Grid' });
    const first = tiles()[0]!;
    const second = tiles()[1]!;

    await moveTile(first, 'on screen');
    const video = videoOf(first)!;
    expect(played).toEqual([video]);
    expect(video.getAttribute('preload')).toBe('auto');

    await moveTile(first, 'near');
    expect(paused).toContain(video);
    expect(videoOf(first)).toBe(video);
    expect(played).toEqual([video]);

    await moveTile(first, 'far');
    // The video is gone, and its decoder with it: no source, loaded again with none.
    expect(videoOf(first)).toBeNull();
    expect(video.hasAttribute('src')).toBe(false);
    expect(reloaded).toContain(video);
    expect(first).toHaveAccessibleName(gifs[0]!.title);

    await moveTile(first, 'near');
    expect(videoOf(first)?.getAttribute('src')).toBe(mp4Of(gifs[0]!));
    await moveTile(first, 'on screen');
    expect(played.at(-1)).toBe(videoOf(first));
    // Another tile is unaffected by the first one's moves.
    expect(played).not.toContain(videoOf(second));
  });

  it('watches every tile with the same pair of observers, owned by the grid and ended with it', async () => {
    stubVideo();
    const gifs = loadList(fixtureFiles.trending).data;
    const { unmount } = renderGrid(gifs);
    await screen.findByRole('list', { name: 'Grid' });
    const watching = observersOf(tiles()[0]!);
    expect(watching).toHaveLength(2);
    expect(watching.map((observer) => observer.rootMargin).sort()).toEqual(
      ['0px', nearMargin].sort(),
    );
    for (const tile of tiles()) expect(observersOf(tile)).toEqual(watching);
    unmount();
    for (const observer of watching) expect(observer.targets.size).toBe(0);
  });

  it('loads nothing for tiles below the first screen until they come near', async () => {
    stubVideo();
    const gifs = loadList(fixtureFiles.trending).data;
    renderGrid(gifs);
    await screen.findByRole('list', { name: 'Grid' });
    const last = tiles().at(-1)!;
    expect(videoOf(last)).toBeNull();
    expect(last.querySelector('img')).toBeNull();
    expect(last).toHaveAccessibleName(gifs.at(-1)!.title);
    await moveTile(last, 'near');
    expect(videoOf(last)?.getAttribute('src')).toBe(mp4Of(gifs.at(-1)!));
  });

  it('fetches a video’s poster only for a phone’s first tiles', async () => {
    stubVideo();
    const gifs = loadList(fixtureFiles.trending).data;
    renderGrid(gifs);
    await screen.findByRole('list', { name: 'Grid' });
    // On a phone the first tiles paint their posters first: the largest paint is among them.
    expect(videoOf(tiles()[0]!)?.getAttribute('poster')).toBe(
      gifs[0]!.images.fixed_width_still.url,
    );
    // Further down a video shows its first frame, which comes in its first kilobytes: a poster
    // would be a second request for the same picture.
    const last = tiles().at(-1)!;
    await moveTile(last, 'near');
    expect(videoOf(last)?.getAttribute('src')).toBe(mp4Of(gifs.at(-1)!));
    expect(videoOf(last)!.hasAttribute('poster')).toBe(false);
    await moveTile(last, 'on screen');
    expect(played).toContain(videoOf(last));
    expect(videoOf(last)!.hasAttribute('poster')).toBe(false);
  });

  it('fetches no poster for the first tiles of a wider screen', async () => {
    installDom(['(min-width: 48rem)', '(min-width: 64rem)']);
    stubVideo();
    const gifs = loadList(fixtureFiles.trending).data;
    renderGrid(gifs);
    await screen.findByRole('list', { name: 'Grid' });
    const first = tiles()[0]!;
    expect(videoOf(first)?.getAttribute('src')).toBe(mp4Of(gifs[0]!));
    expect(videoOf(first)!.hasAttribute('poster')).toBe(false);
  });

  it('shows the poster of a video the browser will not play unasked', async () => {
    stubVideo();
    // iOS in Low Power Mode refuses autoplay, muted or not.
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockRejectedValue(
      new DOMException('The request is not allowed by the user agent.', 'NotAllowedError'),
    );
    const gifs = loadList(fixtureFiles.trending).data;
    renderGrid(gifs);
    await screen.findByRole('list', { name: 'Grid' });
    const last = tiles().at(-1)!;
    await moveTile(last, 'on screen');
    await waitFor(() =>
      expect(videoOf(last)?.getAttribute('poster')).toBe(gifs.at(-1)!.images.fixed_width_still.url),
    );
  });

  it('shows stills with reduced motion and plays a tile on hover', async () => {
    installDom(['(prefers-reduced-motion: reduce)']);
    stubVideo();
    const gifs = loadList(fixtureFiles.trending).data;
    renderGrid(gifs);
    await screen.findByRole('list', { name: 'Grid' });
    const first = tiles()[0]!;
    await moveTile(first, 'on screen');
    expect(videoOf(first)).toBeNull();
    expect(within(first).getByRole('img', { name: gifs[0]!.title })).toHaveAttribute(
      'src',
      gifs[0]!.images.fixed_width_still.url,
    );
    expect(played).toEqual([]);

    await userEvent.hover(first);
    const video = videoOf(first)!;
    expect(video.getAttribute('src')).toBe(mp4Of(gifs[0]!));
    expect(played).toEqual([video]);
    await userEvent.unhover(first);
    expect(videoOf(first)).toBeNull();
    // A video that takes over from its still, anywhere in the grid, shows the still until it
    // plays (the same file, fetched already).
    const last = tiles().at(-1)!;
    await moveTile(last, 'on screen');
    await userEvent.hover(last);
    expect(videoOf(last)?.getAttribute('poster')).toBe(gifs.at(-1)!.images.fixed_width_still.url);
  });

  it('shows the WebP (GIF fallback) when a video cannot play', async () => {
    stubVideo();
    const gifs = loadList(fixtureFiles.trending).data;
    renderGrid(gifs);
    await screen.findByRole('list', { name: 'Grid' });
    const first = tiles()[0]!;
    fireEvent.error(videoOf(first)!);
    await waitFor(() => expect(videoOf(first)).toBeNull());
    expect(first.querySelector('source')).toHaveAttribute(
      'srcset',
      (gifs[0]!.images.fixed_width as { webp?: string }).webp,
    );
    expect(within(first).getByRole('img', { name: gifs[0]!.title })).toHaveAttribute(
      'src',
      gifs[0]!.images.fixed_width.url,
    );
  });

  it('keeps today’s WebP and GIF where the browser plays no MP4, or an item has none', async () => {
    stubVideo({ mp4: false });
    const gifs = loadList(fixtureFiles.trending).data;
    renderGrid(gifs);
    await screen.findByRole('list', { name: 'Grid' });
    expect(videoOf(tiles()[0]!)).toBeNull();
    expect(tiles()[0]!.querySelector('picture source')).toHaveAttribute('type', 'image/webp');
  });

  it('shows stickers as animated WebP, never as MP4 on black; as WebM where alpha plays', async () => {
    stubVideo({ webm: false });
    const stickers = loadList(fixtureFiles.stickers).data;
    const view = renderGrid(stickers);
    await screen.findByRole('list', { name: 'Grid' });
    expect(videoOf(tiles()[0]!)).toBeNull();
    expect(tiles()[0]!.querySelector('source')).toHaveAttribute(
      'srcset',
      (stickers[0]!.images.fixed_width as { webp?: string }).webp,
    );
    view.unmount();
    vi.restoreAllMocks();

    stubVideo();
    const withWebm = stickers.map((sticker) => ({
      ...sticker,
      id: `${sticker.id}-webm`,
      images: {
        ...sticker.images,
        fixed_width: {
          ...sticker.images.fixed_width,
          webm: `https://sticky.test/${sticker.id}.webm`,
        },
      },
    }));
    renderGrid(withWebm);
    await screen.findByRole('list', { name: 'Grid' });
    expect(videoOf(tiles()[0]!)?.getAttribute('src')).toBe(
      `https://sticky.test/${stickers[0]!.id}.webm`,
    );
  });
});
