import type { Browser, Page } from '@playwright/test';
import sharp from 'sharp';
import type { SharpOptions } from 'sharp';
import { expectNoSeriousAxeViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';
import { signInFromLanding, uniqueEmail } from './support/journey.ts';
import { startStickyServer } from './support/server.ts';

/** Where the screenshots of the changed pages go (the lead's review reads them). */
const screensDir = process.env.STICKY_SCREENS_DIR ?? '';
const waitingLine = 'A GIF is waiting for you after sign-in.';

/** A wide animation of its own colours (`seed`): 1200 × 300, three frames. */
async function makeWideGif(seed: number, width = 1200, height = 300): Promise<Buffer> {
  const frames = 3;
  const raw = Buffer.alloc(width * height * frames * 4);
  for (let index = 0; index < raw.length; index += 4) {
    const pixel = index / 4;
    const x = pixel % width;
    const y = Math.floor(pixel / width) % height;
    const frame = Math.floor(pixel / (width * height));
    // Fine stripes: a 200 px tile scaled up shows them blurred.
    raw[index] = (x * 7 + seed * 13 + frame * 40) % 256;
    raw[index + 1] = (y * 5 + seed * 3) % 256;
    raw[index + 2] = x % 4 < 2 ? 230 : 20;
    raw[index + 3] = 255;
  }
  return sharp(raw, {
    raw: { width, height: height * frames, channels: 4, pageHeight: height },
  } as SharpOptions)
    .gif({ loop: 0, delay: Array(frames).fill(100) })
    .toBuffer();
}

interface Upload {
  uploadId: string;
  itemId: string;
  link: string;
}

/** Uploads through the API as the signed-in page's person, and waits until it is an item. */
async function upload(
  page: Page,
  title: string,
  bytes: Buffer,
  visibility: 'public' | 'unlisted' | 'private' = 'public',
): Promise<Upload> {
  const response = await page.request.post('/api/uploads', {
    multipart: {
      title,
      visibility,
      file: { name: 'wide.gif', mimeType: 'image/gif', buffer: bytes },
    },
  });
  expect(response.status()).toBe(202);
  const receipt = (
    (await response.json()) as {
      uploads: Array<{ uploadId: string; url: string }>;
    }
  ).uploads[0]!;
  let itemId = '';
  await expect
    .poll(
      async () => {
        const mine = (await (await page.request.get('/api/uploads')).json()) as {
          uploads: Array<{ id: string; state: string; itemId: string | null }>;
        };
        const entry = mine.uploads.find((candidate) => candidate.id === receipt.uploadId);
        itemId = entry?.itemId ?? '';
        return entry?.state;
      },
      { timeout: 60_000 },
    )
    .toBe('ready');
  return { uploadId: receipt.uploadId, itemId, link: new URL(receipt.url).pathname };
}

async function screenshot(page: Page, name: string) {
  if (!screensDir) return;
  await page.screenshot({ path: `${screensDir}/${name}.png`, fullPage: true });
}

async function newPage(browser: Browser, baseURL: string, width = 1280): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: { width, height: 900 } });
  return context.newPage();
}

/** The item page's GIF: how wide it is drawn, and how wide the file it is drawn from is. */
async function measureMainMedia(page: Page) {
  const media = page.locator('main h1 ~ div').locator('img, video').first();
  await expect(media).toBeVisible();
  await expect
    .poll(() =>
      media.evaluate((node) =>
        node instanceof HTMLVideoElement
          ? node.videoWidth
          : (node as HTMLImageElement).naturalWidth,
      ),
    )
    .toBeGreaterThan(0);
  return media.evaluate((node) => ({
    shown: Math.round(node.getBoundingClientRect().width * window.devicePixelRatio),
    file:
      node instanceof HTMLVideoElement ? node.videoWidth : (node as HTMLImageElement).naturalWidth,
  }));
}

test.describe('shared links (docs/uploads.md, "Links")', () => {
  test('an upload 1200 px wide is drawn sharp; its link, opened signed out, leads through sign-in to it', async ({
    browser,
    baseURL,
  }) => {
    test.slow();
    const seed = Date.now() % 100_000;
    const title = `Wide wave ${seed.toString(36)}`;
    const owner = await newPage(browser, baseURL!);
    await owner.goto('/landing');
    await signInFromLanding(owner, { name: 'Wendy Wide', email: uniqueEmail('wide') });
    const { itemId, link } = await upload(owner, title, await makeWideGif(seed));
    expect(link).toMatch(/^\/u\//);

    // The item page never scales a small rendition up (docs/web.md, "Media").
    for (const width of [1280, 375]) {
      await owner.setViewportSize({ width, height: 900 });
      await owner.goto(`/gif/${itemId}`);
      await expect(owner.getByRole('heading', { level: 1, name: title })).toBeVisible();
      const { shown, file } = await measureMainMedia(owner);
      expect(shown, `at ${width} px`).toBeGreaterThan(width === 1280 ? 400 : 300);
      expect(file, `at ${width} px`).toBeGreaterThanOrEqual(shown);
      await expectNoSeriousAxeViolations(owner, `an upload's item page at ${width} px`);
      await screenshot(owner, `item-upload-${width}`);
    }

    // Signed out: the landing page, which says a GIF is waiting; after sign-in, the GIF.
    for (const width of [375, 1280]) {
      const visitor = await newPage(browser, baseURL!, width);
      await visitor.goto(link);
      await expect(visitor.getByText(waitingLine)).toBeVisible();
      expect(new URL(visitor.url()).pathname).toBe('/landing');
      await expectNoSeriousAxeViolations(visitor, `the landing page of a shared link at ${width}`);
      await screenshot(visitor, `landing-shared-link-${width}`);
      await signInFromLandingTo(visitor, `sharee-${width}`);
      await expect(visitor.getByRole('heading', { level: 1, name: title })).toBeVisible();
      expect(new URL(visitor.url()).pathname).toMatch(new RegExp(`^/gif/.*${itemId}$`));
      await visitor.context().close();
    }

    // A crawler gets the item's title and description, and a 404 for an unknown slug.
    const crawler = { 'user-agent': 'Slackbot-LinkExpanding 1.0', accept: '*/*' };
    const page = await owner.request.fetch(`${baseURL}/gif/${itemId}`, {
      headers: { ...crawler, cookie: '' },
    });
    expect(await page.text()).toContain(`<title>${title} · Sticky</title>`);
    const unknown = await owner.request.fetch(`${baseURL}/gif/no-such-thing-zz9Plural`, {
      headers: { ...crawler, cookie: '' },
    });
    expect(unknown.status()).toBe(404);
    await owner.context().close();
  });

  test('with PUBLIC_LINKS=true a signed-out person sees a public or unlisted GIF, never a private one', async ({
    browser,
  }) => {
    // A server of its own (PUBLIC_LINKS), two uploads and four pages: minutes on a busy box.
    test.setTimeout(360_000);
    const sticky = await startStickyServer({ PUBLIC_LINKS: 'true' });
    try {
      const seed = Date.now() % 100_000;
      const owner = await newPage(browser, sticky.url);
      await owner.goto('/landing');
      await signInFromLanding(owner, { name: 'Pat Public', email: uniqueEmail('public-links') });
      const unlisted = await upload(
        owner,
        `Only by link ${seed}`,
        await makeWideGif(seed, 600, 200),
        'unlisted',
      );
      const hidden = await upload(
        owner,
        `Mine alone ${seed}`,
        await makeWideGif(seed + 1, 300, 100),
        'private',
      );
      for (const width of [375, 1280]) {
        const visitor = await newPage(browser, sticky.url, width);
        await visitor.goto(unlisted.link);
        await expect(
          visitor.getByRole('heading', { level: 1, name: `Only by link ${seed}` }),
        ).toBeVisible();
        const { file } = await measureMainMedia(visitor);
        expect(file).toBeGreaterThan(0);
        await expect(visitor.getByRole('button', { name: 'Sign in' })).toBeVisible();
        await expectNoSeriousAxeViolations(visitor, `a shared GIF, signed out, at ${width}`);
        await screenshot(visitor, `shared-item-public-links-${width}`);

        // A private item is never shown: the landing page with its line.
        await visitor.goto(hidden.link);
        await expect(visitor.getByText(waitingLine)).toBeVisible();
        expect(new URL(visitor.url()).pathname).toBe('/landing');
        await visitor.context().close();
      }
      await owner.context().close();
    } finally {
      await sticky.stop();
    }
  });
});

/** Signs in from the landing page a shared link led to; sign-in returns to the link's item. */
async function signInFromLandingTo(page: Page, label: string) {
  await page.getByRole('button', { name: 'Get started for free' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sign In' });
  await dialog.getByRole('button', { name: 'Continue with Google' }).click();
  await page.getByLabel('Name').fill(`Sam ${label}`);
  await page.getByLabel('Email').fill(uniqueEmail(label));
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL((url) => url.pathname !== '/landing' && !url.pathname.startsWith('/oidc'));
}
