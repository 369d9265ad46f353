import { describe, expect, it } from 'vitest';
import { fixtureFiles, loadItem, loadList } from '@/test-support/giphy-fixtures.ts';
import {
  getIdFromSlug,
  getItemPath,
  getItemType,
  pickAnimatedSource,
  pickDetailRendition,
  pickTileSources,
} from './content-item.ts';
import type { ContentItem, ContentRendition } from './content-types.ts';

const item = (fields: Record<string, unknown>) => fields as unknown as ContentItem;

describe('getItemType', () => {
  it('maps GIPHY’s type and is_sticker to the route segment', () => {
    expect(getItemType(item({ type: 'gif', is_sticker: false }))).toBe('gif');
    expect(getItemType(item({ type: 'sticker', is_sticker: true }))).toBe('sticker');
    expect(getItemType(item({ type: 'gif', is_sticker: true }))).toBe('sticker');
    // Animated text is transparent (is_sticker) but stays text.
    expect(getItemType(item({ type: 'text', is_sticker: true }))).toBe('text');
  });
});

describe('item paths and ids', () => {
  it('links to /:type/:slug and reads the id back from the slug’s last segment', () => {
    const path = getItemPath(item({ type: 'gif', id: 'abc123', slug: 'happy-dance-abc123' }));
    expect(path).toBe('/gif/happy-dance-abc123');
    expect(getIdFromSlug('happy-dance-abc123')).toBe('abc123');
    expect(getIdFromSlug('abc123')).toBe('abc123');
  });

  it('falls back to the id when the slug does not end with it', () => {
    expect(getItemPath(item({ type: 'text', id: 'xyz', slug: 'something-else' }))).toBe(
      '/text/xyz',
    );
  });
});

describe('pickDetailRendition', () => {
  const images = {
    original: { url: 'o', width: 800, height: 600 },
    downsized: { url: 'd', width: 480, height: 360 },
    fixed_width: { url: 'f', width: 200, height: 150 },
  };
  it('takes the smallest rendition at least as wide as the space, never a smaller one', () => {
    expect(pickDetailRendition(item({ images }), 1000)?.name).toBe('original');
    expect(pickDetailRendition(item({ images }), 800)?.name).toBe('original');
    expect(pickDetailRendition(item({ images }), 600)?.name).toBe('original');
    expect(pickDetailRendition(item({ images }), 480)?.name).toBe('downsized');
    expect(pickDetailRendition(item({ images }), 300)?.name).toBe('downsized');
    expect(pickDetailRendition(item({ images }), 200)?.name).toBe('fixed_width');
    expect(pickDetailRendition(item({ images }), 100)?.name).toBe('fixed_width');
    expect(pickDetailRendition(item({ images: {} }), 100)).toBeNull();
  });
  it('draws a wide upload whose larger renditions are not made yet from its original', () => {
    // `/v1` answers a slot not made yet with the nearest made one: here the original.
    const original = { url: 'o', width: 1200, height: 300 };
    const upload = {
      original,
      downsized_large: original,
      downsized: original,
      fixed_width: { url: 'f', width: 200, height: 50 },
      fixed_height: original,
    };
    expect(pickDetailRendition(item({ images: upload }), 816)?.name).toBe('original');
    expect(pickDetailRendition(item({ images: upload }), 1632)?.name).toBe('original');
  });
});

describe('the media a tile or an item page plays', () => {
  const everything = { canPlayMp4: true, canPlayWebm: true, canPlayAlphaWebm: true };
  const gif = loadItem(fixtureFiles.single);
  const sticker = loadList(fixtureFiles.stickers).data[0]!;
  /** Our server's sticker: GIPHY's fields plus a WebM (with alpha) beside them. */
  const withWebm = (base: ContentItem, type: string): ContentItem => ({
    ...base,
    type: type as ContentItem['type'],
    images: {
      ...base.images,
      fixed_width: {
        ...base.images.fixed_width,
        webm: 'https://sticky.test/200w.webm',
      } as ContentRendition,
    },
  });
  const withoutVideo = (base: ContentItem): ContentItem => {
    const fixedWidth: Record<string, unknown> = { ...base.images.fixed_width };
    delete fixedWidth.mp4;
    delete fixedWidth.mp4_size;
    return {
      ...base,
      images: { ...base.images, fixed_width: fixedWidth as unknown as ContentRendition },
    };
  };

  it('plays a GIF as its MP4 with the still as poster, the GIF kept as fallback', () => {
    const { animated, still } = pickTileSources(gif, everything);
    expect(animated).toEqual({
      kind: 'video',
      src: (gif.images.fixed_width as { mp4?: string }).mp4,
      type: 'video/mp4',
      poster: gif.images.fixed_width_still.url,
      fallback: expect.objectContaining({
        url: gif.images.fixed_width.url,
        webp: (gif.images.fixed_width as { webp?: string }).webp,
      }),
      width: 200,
      height: 214,
    });
    expect(still?.url).toBe(gif.images.fixed_width_still.url);
  });

  it('shows WebP with the GIF as fallback where there is no MP4, or the browser plays none', () => {
    for (const [item, support] of [
      [withoutVideo(gif), everything],
      [gif, { canPlayMp4: false, canPlayWebm: false, canPlayAlphaWebm: false }],
    ] as const) {
      expect(pickTileSources(item, support).animated).toEqual({
        kind: 'image',
        url: gif.images.fixed_width.url,
        webp: (gif.images.fixed_width as { webp?: string }).webp,
        width: 200,
        height: 214,
      });
    }
  });

  it('never plays a sticker’s MP4 (no alpha: a box on black), but its WebP', () => {
    expect(sticker.images.fixed_width).toHaveProperty('mp4');
    const { animated } = pickTileSources(sticker, everything);
    expect(animated).toMatchObject({
      kind: 'image',
      webp: (sticker.images.fixed_width as { webp?: string }).webp,
    });
  });

  it('plays a sticker’s or text’s WebM only where WebM keeps its alpha', () => {
    for (const type of ['sticker', 'text']) {
      const item = withWebm(sticker, type);
      expect(pickTileSources(item, everything).animated).toMatchObject({
        kind: 'video',
        src: 'https://sticky.test/200w.webm',
        type: 'video/webm',
        poster: sticker.images.fixed_width_still.url,
      });
      expect(
        pickTileSources(item, { canPlayMp4: true, canPlayWebm: false, canPlayAlphaWebm: false })
          .animated,
      ).toMatchObject({ kind: 'image' });
    }
  });

  it('plays a GIF’s VP9 WebM where it is lighter than its MP4 and the browser plays VP9', () => {
    const mp4Bytes = Number((gif.images.fixed_width as { mp4_size?: string }).mp4_size);
    const withGifWebm = (webmSize: string | undefined): ContentItem => ({
      ...gif,
      images: {
        ...gif.images,
        fixed_width: {
          ...gif.images.fixed_width,
          webm: 'https://sticky.test/200w.webm',
          ...(webmSize === undefined ? {} : { webm_size: webmSize }),
        } as ContentRendition,
      },
    });
    const lighter = withGifWebm(String(Math.floor(mp4Bytes / 2)));
    expect(pickTileSources(lighter, everything).animated).toMatchObject({
      kind: 'video',
      src: 'https://sticky.test/200w.webm',
      type: 'video/webm',
      poster: gif.images.fixed_width_still.url,
    });
    const mp4 = { kind: 'video', src: (gif.images.fixed_width as { mp4?: string }).mp4 };
    // Not where the browser plays no VP9 (WebKit), nor when it is not lighter or its size unknown.
    const noVp9 = { canPlayMp4: true, canPlayWebm: false, canPlayAlphaWebm: false };
    expect(pickTileSources(lighter, noVp9).animated).toMatchObject(mp4);
    expect(pickTileSources(withGifWebm(String(mp4Bytes + 1)), everything).animated).toMatchObject(
      mp4,
    );
    expect(pickTileSources(withGifWebm(undefined), everything).animated).toMatchObject(mp4);
    // A browser that plays VP9 and no H.264 still gets a video.
    expect(
      pickTileSources(lighter, { canPlayMp4: false, canPlayWebm: true, canPlayAlphaWebm: true })
        .animated,
    ).toMatchObject({ kind: 'video', type: 'video/webm' });
  });

  it('keeps the WebP where it is fewer bytes than the video and its poster', () => {
    const sized = (webpSize: string, mp4Size: string, stillSize: string): ContentItem => ({
      ...gif,
      images: {
        ...gif.images,
        fixed_width: {
          ...gif.images.fixed_width,
          webp_size: webpSize,
          mp4_size: mp4Size,
        } as ContentRendition,
        fixed_width_still: { ...gif.images.fixed_width_still, size: stillSize },
      },
    });
    // A terminal recording: 7 KB of WebP, 20 KB of MP4.
    expect(pickTileSources(sized('7000', '20000', '500'), everything).animated?.kind).toBe('image');
    // The poster is fetched too: 9 KB of WebP against 8 KB of MP4 and a 2 KB still.
    expect(pickTileSources(sized('9000', '8000', '2000'), everything).animated?.kind).toBe('image');
    expect(pickTileSources(sized('20000', '8000', '2000'), everything).animated?.kind).toBe(
      'video',
    );
    // Sizes unknown: video, usually the lighter.
    expect(pickTileSources(sized('', '', ''), everything).animated?.kind).toBe('video');
  });

  it('posters a video with its still’s WebP when the still has one, and counts its bytes', () => {
    const withStill = (still: Record<string, string>): ContentItem => ({
      ...gif,
      images: {
        ...gif.images,
        fixed_width: {
          ...gif.images.fixed_width,
          webp_size: '9000',
          mp4_size: '8000',
        } as ContentRendition,
        fixed_width_still: { ...gif.images.fixed_width_still, ...still } as ContentRendition,
      },
    });
    // A 2 KB GIF still makes 8 + 2 KB of video heavier than 9 KB of WebP; its 300 B WebP does not.
    expect(pickTileSources(withStill({ size: '2000' }), everything).animated?.kind).toBe('image');
    const lighter = withStill({
      size: '2000',
      webp: 'https://sticky.test/200w_s.webp',
      webp_size: '300',
    });
    expect(pickTileSources(lighter, everything).animated).toMatchObject({
      kind: 'video',
      poster: 'https://sticky.test/200w_s.webp',
    });
    // A WebP heavier than the GIF (tiny flat art) is not the poster.
    const heavierWebp = withStill({
      size: '200',
      webp: 'https://sticky.test/s.webp',
      webp_size: '300',
    });
    expect(pickTileSources(heavierWebp, everything).animated).toMatchObject({
      poster: gif.images.fixed_width_still.url,
    });
    // The reduced-motion still is shown as WebP too.
    expect(pickTileSources(lighter, everything).still).toMatchObject({
      webp: 'https://sticky.test/200w_s.webp',
    });
  });

  it('takes the original’s video for a detail rendition without one', () => {
    const downsized = gif.images.downsized as ContentRendition;
    expect(downsized).not.toHaveProperty('mp4');
    const still = gif.images.original_still as ContentRendition;
    const source = pickAnimatedSource(gif, downsized, still, everything, [
      gif.images.original,
      gif.images.original_mp4,
    ]);
    // 168 KB of MP4 and a 26 KB still against a 285 KB GIF.
    expect(source).toMatchObject({
      kind: 'video',
      src: (gif.images.original as { mp4?: string }).mp4,
      poster: still.url,
    });
  });
});
