import type { Browser, BrowserContext, Locator, Page } from '@playwright/test';
import { pickPoster, pickVideoSource } from '@sticky/contracts';
import { expectNoSeriousAxeViolations } from './support/axe.ts';
import { e2eApiKey } from './support/api-key.ts';
import { expect, test as base } from '@playwright/test';
import { signInFromLanding, uniqueEmail } from './support/journey.ts';
import {
  expectVideoAdvancing,
  makeStickerGif,
  makeTallGif,
  makeVideoFriendlyGif,
  readCornerAndMiddleAlpha,
  readShownMedia,
  readV1Item,
  uploadItems,
} from './support/media.ts';
import type { ShownMedia, V1Item } from './support/media.ts';
import { startStickyServer } from './support/server.ts';
import type { StickyServer } from './support/server.ts';

/**
 * Media in Chromium (docs/web.md, "Media"): tiles and the item page play the lightest format the
 * browser shows, a GIF as a muted looping inline video over its still, a sticker without ever
 * losing its transparency; tiles far off screen let go of their media; reduced motion and the
 * pause control stop it. Our own uploads, so the media is known: no starter catalog needed.
 */

const seed = Date.now() % 100_000;
const randomWord = (prefix: string) => `${prefix}${Math.random().toString(36).slice(2, 8)}`;
/** Tags no other item has: one for the GIF and the sticker, one for the tall GIFs. */
const word = randomWord('mv');
const tallWord = randomWord('tq');
const tallCount = 12;

/** Chromium plays H.264, VP9 and VP9 with alpha (docs/web.md, "Media"). */
const chromiumSupport = { canPlayMp4: true, canPlayWebm: true, canPlayAlphaWebm: true };

interface MediaServer {
  sticky: StickyServer;
  storageState: Awaited<ReturnType<BrowserContext['storageState']>>;
  gif: V1Item;
  sticker: V1Item;
}

/**
 * A server of our own without the starter catalog: the renditions made after an item is
 * ready (docs/catalog.md, "Renditions") wait behind imports, and the shared server's seed
 * would keep them waiting for minutes. It holds a GIF, a sticker and the tall GIFs, uploaded by
 * a signed-in person whose session the tests reuse.
 */
const test = base.extend<object, { media: MediaServer }>({
  media: [
    async ({ browser }, use) => {
      const sticky = await startStickyServer({
        SEED_STARTER_CATALOG: 'false',
        STICKY_API_KEYS: e2eApiKey,
      });
      const context = await browser.newContext({ baseURL: sticky.url });
      const page = await context.newPage();
      await page.goto('/landing');
      await signInFromLanding(page, { name: 'Mia Media', email: uniqueEmail('media') });
      const [gifId] = await uploadItems(
        context.request,
        [{ name: 'moving-colours.gif', bytes: await makeVideoFriendlyGif(seed) }],
        { title: `Moving colours ${word}`, tags: word, type: 'gif' },
      );
      const [stickerId] = await uploadItems(
        context.request,
        [{ name: 'orange-disc.gif', bytes: await makeStickerGif(seed) }],
        { title: `Orange disc ${word}`, tags: word, type: 'sticker' },
      );
      const tall = await Promise.all(
        Array.from({ length: tallCount }, async (_, index) => ({
          name: `tall-${index + 1}.gif`,
          bytes: await makeTallGif(seed * 16 + index),
        })),
      );
      await uploadItems(context.request, tall, { tags: tallWord, type: 'gif' });
      // The later renditions are in before the pages are looked at (a sticker's WebM is one of
      // them), so no source changes under a playing video.
      await expect
        .poll(async () => (await readV1Item(context.request, gifId!)).images.original?.mp4, {
          timeout: 90_000,
        })
        .toBeTruthy();
      await expect
        .poll(async () => (await readV1Item(context.request, stickerId!)).images.original?.webm, {
          timeout: 90_000,
        })
        .toBeTruthy();
      const gif = await readV1Item(context.request, gifId!);
      const sticker = await readV1Item(context.request, stickerId!);
      const storageState = await context.storageState();
      await context.close();
      await use({ sticky, storageState, gif, sticker });
      await sticky.stop();
    },
    { scope: 'worker', timeout: 300_000 },
  ],
});

async function openPage(
  browser: Browser,
  media: MediaServer,
  viewport = { width: 1280, height: 900 },
): Promise<{ page: Page; pageErrors: string[] }> {
  const context = await browser.newContext({
    baseURL: media.sticky.url,
    storageState: media.storageState,
    viewport,
  });
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return { page, pageErrors };
}

/** The grid's tile of one item (its link ends with the item's id). */
const tileOf = (page: Page, id: string) => page.locator(`[data-testid="gif-tile"][href$="${id}"]`);

/** The item page's media box: the media and its pause/play control. */
const itemMediaOf = (page: Page) =>
  page.getByRole('button', { name: /^(Pause|Play) animation$/ }).locator('..');

const hasMedia = (shown: ShownMedia) => Boolean(shown.video?.src || shown.image?.src);

/** Every video in `scope` is paused (or there is none). */
async function expectNoVideoPlaying(scope: Locator | Page) {
  const videos = scope.locator('video');
  await expect
    .poll(() =>
      videos.evaluateAll((all: HTMLVideoElement[]) => all.filter((video) => !video.paused).length),
    )
    .toBe(0);
}

test.describe('media in Chromium', () => {
  // Media work is CPU-bound: a busy machine (two cores, a CI run beside) needs the margin.
  test.describe.configure({ timeout: 180_000 });

  test("the page of / preloads the home page's scripts, and the page uses each one", async ({
    browser,
    media,
  }) => {
    const { page, pageErrors } = await openPage(browser, media);
    await page.goto('/');
    await expect(page.getByTestId('gif-tile').first()).toBeVisible();
    const preloaded = await page
      .locator('link[rel="modulepreload"]')
      .evaluateAll((links: HTMLLinkElement[]) => links.map((link) => new URL(link.href).pathname));
    // The home page's own chunk is among them: the server found it in the build's manifest.
    expect(preloaded.some((file) => /^\/assets\/home-[\w-]+\.js$/.test(file))).toBe(true);
    const loaded = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((entry) => new URL(entry.name).pathname)
        .filter((file) => file.endsWith('.js')),
    );
    // Nothing preloaded in vain: each is a script the page went on to run.
    for (const file of preloaded) expect(loaded).toContain(file);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  test('on a phone, / is drawn whole from its first render, and what its first screen paints first comes with the page', async ({
    browser,
    media,
  }) => {
    const { page, pageErrors } = await openPage(browser, media, { width: 412, height: 823 });
    const sessionChecks: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/auth/me') sessionChecks.push(request.url());
    });
    // A string: the page runs it before its own scripts, as it is.
    await page.addInitScript(`
      window.__shiftedNodes = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          for (const source of entry.sources) {
            window.__shiftedNodes.push(source.node ? source.node.id || source.node.nodeName : '?');
          }
        }
      }).observe({ type: 'layout-shift', buffered: true });
    `);
    await page.goto('/');
    const tiles = page.getByTestId('gif-tile');
    await expect(tiles.first()).toBeVisible();
    // The page carried the session: the app never asked for it, and the header had its
    // signed-in height (the search box's row) from the first paint, so the screen below it
    // never moved down.
    expect(sessionChecks).toEqual([]);
    await expect(page.getByRole('searchbox').first()).toBeVisible();
    const shifted = await page.evaluate(
      () => (window as unknown as { __shiftedNodes: string[] }).__shiftedNodes,
    );
    expect(shifted).not.toContain('main-content');
    // Each tile a phone's two columns start above the fold (within the grid's width) has what
    // it paints first (a video's poster, else its image) preloaded by the page, and nothing
    // else is.
    const readFirstPaints = () =>
      tiles.evaluateAll((links: HTMLElement[]) =>
        links
          .filter((link) => {
            const item = link.closest('li')!;
            return item.offsetTop < item.parentElement!.clientWidth;
          })
          .map((link) => {
            const video = link.querySelector('video');
            return video ? video.poster : (link.querySelector('img')?.currentSrc ?? '');
          }),
      );
    await expect.poll(async () => (await readFirstPaints()).every(Boolean)).toBe(true);
    const firstPaints = await readFirstPaints();
    expect(firstPaints.length).toBeGreaterThanOrEqual(2);
    const preloaded = await page
      .locator('link[rel="preload"][as="image"]')
      .evaluateAll((links: HTMLLinkElement[]) => links.map((link) => link.href));
    expect(preloaded.sort()).toEqual([...firstPaints].sort());
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  test('a GIF tile is a muted, looping, inline video, and it plays', async ({ browser, media }) => {
    const { gif } = media;
    const fixedWidth = gif.images.fixed_width!;
    const still = gif.images.fixed_width_still!;
    // The test's GIF is one video suits: its videos and poster weigh less than its WebP, and
    // its VP9 WebM (a later rendition, in by now) less than its MP4, so Chromium is shown the
    // WebM. The poster is the still's lighter file, its WebP or its GIF.
    const poster = pickPoster(still)!.url;
    expect([still.url, still.webp]).toContain(poster);
    expect(fixedWidth.mp4).toMatch(/\.mp4$/);
    expect(fixedWidth.webm).toMatch(/\.webm$/);
    expect(Number(fixedWidth.webm_size)).toBeLessThan(Number(fixedWidth.mp4_size));
    expect(
      pickVideoSource(fixedWidth, still, { ...chromiumSupport, isTransparent: false }),
    ).toEqual({ src: fixedWidth.webm, type: 'video/webm', poster });
    const { page, pageErrors } = await openPage(browser, media);
    await page.goto(`/search/${word}`);
    const tile = tileOf(page, gif.id);
    await expect(tile.locator('video')).toHaveCount(1);
    expect((await readShownMedia(tile)).video).toMatchObject({
      src: fixedWidth.webm,
      // On a wide screen no tile fetches a poster: the video's first frame comes with its
      // first kilobytes (a phone's first tiles show theirs: the test of / on a phone above).
      poster: '',
      muted: true,
      loop: true,
      playsInline: true,
    });
    await expectVideoAdvancing(tile);
    expect((await readShownMedia(tile)).video?.videoWidth).toBeGreaterThan(0);
    await expectNoSeriousAxeViolations(page, 'a grid of video tiles');
    expect(pageErrors).toEqual([]);
  });

  test('a sticker tile keeps its transparency: WebM with alpha or WebP, never an MP4', async ({
    browser,
    media,
  }) => {
    const { sticker } = media;
    const fixedWidth = sticker.images.fixed_width!;
    const still = sticker.images.fixed_width_still!;
    // docs/api.md, "Renditions": a sticker has no H.264 anywhere, its video is a WebM.
    for (const [name, rendition] of Object.entries(sticker.images)) {
      expect(rendition.mp4, name).toBeUndefined();
    }
    expect(fixedWidth.webm).toMatch(/\.webm$/);
    const picked = pickVideoSource(fixedWidth, still, { ...chromiumSupport, isTransparent: true });
    // Made so that the WebM (and poster) is lighter than the WebP: the video path is the one
    // at risk of a black box, so it is the one this test must see.
    expect(picked, 'the test sticker should play as WebM').toEqual({
      src: fixedWidth.webm,
      type: 'video/webm',
      poster: pickPoster(still)!.url,
    });

    const { page, pageErrors } = await openPage(browser, media);
    await page.goto(`/search/${word}?type=stickers`);
    const tile = tileOf(page, sticker.id);
    await expect(tile.locator('video')).toHaveCount(1);
    const shown = await readShownMedia(tile);
    expect(shown.video?.src).toBe(fixedWidth.webm);
    expect(shown.video?.src).not.toMatch(/\.mp4$/);
    await expectVideoAdvancing(tile);
    expect((await readShownMedia(tile)).video?.videoWidth).toBe(Number(fixedWidth.width));
    // The decoded frame keeps the alpha: a clear corner, an opaque middle.
    const [corner, middle] = await readCornerAndMiddleAlpha(tile);
    expect(corner).toBeLessThan(16);
    expect(middle).toBeGreaterThan(240);
    await expectNoSeriousAxeViolations(page, 'a grid of sticker tiles');
    expect(pageErrors).toEqual([]);
  });

  test('tiles far off screen release their media and take it back when scrolled to', async ({
    browser,
    media,
  }) => {
    const viewport = { width: 375, height: 667 };
    const { page, pageErrors } = await openPage(browser, media, viewport);
    await page.goto(`/search/${tallWord}`);
    const tiles = page
      .getByRole('list', { name: `Results for ${tallWord}` })
      .getByTestId('gif-tile');
    await expect(tiles).toHaveCount(tallCount);
    const first = tiles.first();
    const last = tiles.last();
    await expect.poll(async () => hasMedia(await readShownMedia(first))).toBe(true);
    // Far: beyond a screen and a half below the screen (tile-observer.ts, nearMargin).
    const lastTop = (await last.boundingBox())!.y;
    expect(lastTop).toBeGreaterThan(viewport.height * 2.5);
    expect(await readShownMedia(last)).toEqual({ video: null, image: null });
    await expect(last).toHaveAccessibleName(/\S/);

    await last.scrollIntoViewIfNeeded();
    await expect.poll(async () => hasMedia(await readShownMedia(last))).toBe(true);
    const back = await readShownMedia(last);
    if (back.video) await expectVideoAdvancing(last);
    else
      await expect
        .poll(async () => (await readShownMedia(last)).image?.naturalWidth)
        .toBeGreaterThan(0);
    // The first tile is now far above: its media is released.
    expect((await first.boundingBox())!.y).toBeLessThan(-viewport.height * 2.5);
    await expect.poll(async () => hasMedia(await readShownMedia(first))).toBe(false);
    expect(pageErrors).toEqual([]);
  });

  test('under reduced motion tiles and the item show stills and no video plays', async ({
    browser,
    media,
  }) => {
    const { gif, sticker } = media;
    const { page, pageErrors } = await openPage(browser, media);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto(`/search/${word}`);
    const tile = tileOf(page, gif.id);
    const still = gif.images.fixed_width_still!;
    await expect
      .poll(async () => (await readShownMedia(tile)).image)
      .toEqual({ src: still.url, naturalWidth: Number(still.width) });
    expect((await readShownMedia(tile)).video).toBeNull();
    await expectNoVideoPlaying(page);
    await expectNoSeriousAxeViolations(page, 'a grid of stills');

    await page.goto(`/search/${word}?type=stickers`);
    const stickerTile = tileOf(page, sticker.id);
    const stickerStill = sticker.images.fixed_width_still!;
    await expect
      .poll(async () => (await readShownMedia(stickerTile)).image?.src)
      .toBe(stickerStill.url);
    await expectNoVideoPlaying(page);

    // The item page starts paused on its still; Play plays it, Pause stops it again.
    await page.goto(gif.url);
    const itemMedia = itemMediaOf(page);
    await expect(page.getByRole('button', { name: 'Play animation' })).toBeVisible();
    const stillUrls = Object.entries(gif.images)
      .filter(([name]) => name.endsWith('_still'))
      .map(([, rendition]) => rendition.url);
    await expect
      .poll(async () => (await readShownMedia(itemMedia)).image?.naturalWidth)
      .toBeGreaterThan(0);
    expect(stillUrls).toContain((await readShownMedia(itemMedia)).image?.src);
    await expectNoVideoPlaying(page);
    await expectNoSeriousAxeViolations(page, 'the item page under reduced motion');
    await page.getByRole('button', { name: 'Play animation' }).click();
    await expectVideoAdvancing(itemMedia);
    expect(pageErrors).toEqual([]);
  });

  test('the item page plays the item; the pause control stops it', async ({ browser, media }) => {
    const { gif, sticker } = media;
    const { page, pageErrors } = await openPage(browser, media);
    await page.goto(gif.url);
    const itemMedia = itemMediaOf(page);
    await expectVideoAdvancing(itemMedia);
    const playing = (await readShownMedia(itemMedia)).video!;
    const gifVideos = Object.values(gif.images).flatMap((rendition) => [
      ...(rendition.mp4 ? [rendition.mp4] : []),
      ...(rendition.webm ? [rendition.webm] : []),
    ]);
    expect(gifVideos).toContain(playing.src);
    expect(playing).toMatchObject({ muted: true, loop: true, playsInline: true });
    expect(playing.videoWidth).toBeGreaterThan(0);
    await expectNoSeriousAxeViolations(page, 'the item page, playing');

    await page.getByRole('button', { name: 'Pause animation' }).click();
    await expect(page.getByRole('button', { name: 'Play animation' })).toBeVisible();
    await expectNoVideoPlaying(itemMedia);
    await expect
      .poll(async () => (await readShownMedia(itemMedia)).image?.naturalWidth)
      .toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Play animation' }).click();
    await expectVideoAdvancing(itemMedia);

    // A sticker's page: its WebM with alpha (or WebP), never an MP4.
    await page.goto(sticker.url);
    const stickerMedia = itemMediaOf(page);
    await expect.poll(async () => hasMedia(await readShownMedia(stickerMedia))).toBe(true);
    const shown = await readShownMedia(stickerMedia);
    if (shown.video) {
      expect(shown.video.src).toMatch(/\.webm$/);
      await expectVideoAdvancing(stickerMedia);
      expect((await readShownMedia(stickerMedia)).video?.videoWidth).toBeGreaterThan(0);
    } else {
      expect(shown.image?.src).toMatch(/\.(webp|gif)$/);
      await expect
        .poll(async () => (await readShownMedia(stickerMedia)).image?.naturalWidth)
        .toBeGreaterThan(0);
    }
    const [corner, middle] = await readCornerAndMiddleAlpha(stickerMedia);
    expect(corner).toBeLessThan(16);
    expect(middle).toBeGreaterThan(240);
    await expectNoSeriousAxeViolations(page, 'a sticker’s page');
    expect(pageErrors).toEqual([]);
  });
});
