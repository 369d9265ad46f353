import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { oembedResponseSchema } from '@sticky/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { items } from '../db/schema.ts';
import { createTestApp, readChangedVersions } from '../test-support/app.ts';
import type { TestApp } from '../test-support/app.ts';
import { insertCatalogItems } from '../test-support/catalog-fixtures.ts';
import { signInAs } from '../test-support/sign-in.ts';

const publicUrl = 'https://sticky.example';

/** How each chat app's crawler asks for a link: its User-Agent and Accept, no cookie, no JS. */
const crawlers = {
  slack: {
    'user-agent': 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
    accept: '*/*',
  },
  discord: { 'user-agent': 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)' },
  mastodon: {
    'user-agent': 'http.rb/5.2.0 (Mastodon/4.3.0; +https://mastodon.example/)',
    accept: 'text/html',
  },
} as const;

/** The `<meta property|name=… content=…>` of a page, by key (what a crawler reads). */
function readMeta(html: string): Map<string, string> {
  const meta = new Map<string, string>();
  for (const match of html.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)">/g)) {
    const content = match[2]!
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>');
    meta.set(match[1]!, content.replace(/&amp;/g, '&'));
  }
  return meta;
}

function makeDist(): string {
  const distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-dist-'));
  fs.writeFileSync(
    path.join(distDir, 'index.html'),
    '<!doctype html><html><head><title>Sticky</title></head><body><div id="root"></div></body></html>',
  );
  return distDir;
}

describe('links that unfurl', () => {
  let testApp: TestApp;
  let distDir: string;
  let gifId: string;
  let stickerId: string;
  let hiddenId: string;

  beforeAll(async () => {
    distDir = makeDist();
    testApp = await createTestApp({ PUBLIC_URL: publicUrl }, { webDistDir: distDir });
    [gifId, stickerId, hiddenId] = (await insertCatalogItems(testApp.database, [
      {
        title: 'Dancing "cat" <3',
        altText: 'A cat dances on a piano',
        hasMp4: true,
        creator: 'piano-cat',
      },
      { type: 'sticker', title: 'Waving hand', width: 320, height: 320 },
      { title: 'Hidden one' },
    ])) as [string, string, string];
    await testApp.database.db
      .update(items)
      .set({ hiddenAt: new Date(), isIndexable: false })
      .where(eq(items.id, hiddenId));
  });
  afterAll(async () => {
    await testApp.close();
    if (distDir) fs.rmSync(distDir, { recursive: true, force: true });
  });

  const pagePath = (type: string, id: string, words = 'some-words') => `/${type}/${words}-${id}`;

  it('gives Slack, Discord and Mastodon the GIF, its video, title and alt text', async () => {
    for (const [name, headers] of Object.entries(crawlers)) {
      const response = await testApp.app.inject({ url: pagePath('gif', gifId), headers });
      expect(response.statusCode, name).toBe(200);
      expect(response.headers['content-type'], name).toContain('text/html');
      const meta = readMeta(response.body);
      expect(meta.get('og:title'), name).toBe('Dancing "cat" <3');
      expect(meta.get('og:description'), name).toBe('A cat dances on a piano');
      expect(meta.get('og:image'), name).toMatch(/^https:\/\/sticky\.example\/media\/.+\.gif$/);
      expect(meta.get('og:image:type')).toBe('image/gif');
      expect(Number(meta.get('og:image:width'))).toBeGreaterThan(0);
      expect(meta.get('og:video'), name).toMatch(/^https:\/\/sticky\.example\/media\/.+\.mp4$/);
      expect(meta.get('og:video:type')).toBe('video/mp4');
      expect(meta.get('og:type')).toBe('video.other');
      expect(meta.get('twitter:card')).toBe('summary_large_image');
      expect(meta.get('og:url')).toMatch(/^https:\/\/sticky\.example\/gif\//);
      // The page is named and described as the item, for crawlers that read no OpenGraph.
      expect(response.body).toContain('<title>Dancing "cat" &lt;3 · Sticky</title>');
      expect(meta.get('description'), name).toBe('A cat dances on a piano');
      // The title cannot break out of its attribute.
      expect(response.body).not.toContain('"cat" <3');
      // The page is still the app for people.
      expect(response.body).toContain('<div id="root"></div>');
    }
  });

  it('leads Mastodon and Matrix from the page to an oEmbed photo of the GIF', async () => {
    const page = await testApp.app.inject({
      url: pagePath('gif', gifId),
      headers: crawlers.mastodon,
    });
    const href = /<link rel="alternate" type="application\/json\+oembed" href="([^"]+)"/.exec(
      page.body,
    )?.[1];
    expect(href).toBeDefined();
    const oembedUrl = new URL(href!.replace(/&amp;/g, '&'));
    expect(oembedUrl.origin).toBe(publicUrl);
    const response = await testApp.app.inject({
      url: `${oembedUrl.pathname}${oembedUrl.search}`,
      headers: crawlers.mastodon,
    });
    expect(response.statusCode).toBe(200);
    const oembed = oembedResponseSchema.parse(response.json());
    expect(oembed).toMatchObject({
      type: 'photo',
      version: '1.0',
      title: 'Dancing "cat" <3',
      provider_name: 'Sticky',
      author_name: 'piano-cat',
    });
    expect(oembed.url).toMatch(/^https:\/\/sticky\.example\/media\/.+\.gif$/);

    const small = await testApp.app.inject({
      url: `${oembedUrl.pathname}${oembedUrl.search}&maxwidth=250`,
    });
    expect(small.json().width).toBeLessThanOrEqual(250);
    expect(small.json().url).not.toBe(oembed.url);
  });

  it('shows a sticker without a video it does not have, as an image', async () => {
    const response = await testApp.app.inject({
      url: pagePath('sticker', stickerId),
      headers: crawlers.discord,
    });
    const meta = readMeta(response.body);
    expect(meta.get('og:title')).toBe('Waving hand');
    expect(meta.get('og:image')).toMatch(/\/media\//);
    expect(meta.get('og:video')).toBeUndefined();
  });

  it('unfurls an unlisted item (its link is what its owner shares) and never a private one', async () => {
    const [unlistedId, privateId] = (await insertCatalogItems(testApp.database, [
      { title: 'Shared by link' },
      { title: 'Kept to myself' },
    ])) as [string, string];
    // docs/uploads.md, "Visibility": neither is indexable.
    await testApp.database.db
      .update(items)
      .set({ visibility: 'unlisted', isIndexable: false })
      .where(eq(items.id, unlistedId));
    await testApp.database.db
      .update(items)
      .set({ visibility: 'private', isIndexable: false })
      .where(eq(items.id, privateId));
    await readChangedVersions(testApp);
    const unlisted = await testApp.app.inject({
      url: pagePath('gif', unlistedId),
      headers: crawlers.slack,
    });
    expect(readMeta(unlisted.body).get('og:title')).toBe('Shared by link');
    expect(readMeta(unlisted.body).get('og:image')).toMatch(/\/media\//);
    const hidden = await testApp.app.inject({
      url: pagePath('gif', privateId),
      headers: crawlers.slack,
    });
    expect(hidden.body).not.toContain('og:image');
    expect(hidden.body).not.toContain('Kept to myself');
    const oembed = await testApp.app.inject({
      url: `/oembed?url=${encodeURIComponent(`${publicUrl}${pagePath('gif', privateId)}`)}`,
    });
    expect(oembed.statusCode).toBe(404);
  });

  it('answers 404 with no preview for an unknown, hidden or mistyped item, and oEmbed only for its own item pages', async () => {
    for (const url of [
      pagePath('gif', hiddenId),
      pagePath('sticker', gifId),
      pagePath('gif', 'NoSuchItem1'),
    ]) {
      const response = await testApp.app.inject({ url, headers: crawlers.slack });
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).not.toContain('og:image');
      expect(response.body, url).toContain('<title>Sticky</title>');
      // People still get the app, which says what it says of a missing item.
      expect(response.body, url).toContain('<div id="root"></div>');
    }
    const ask = (url: string, extra = '') =>
      testApp.app.inject({ url: `/oembed?url=${encodeURIComponent(url)}${extra}` });
    for (const url of [
      `https://evil.example${pagePath('gif', gifId)}`,
      `${publicUrl}/search/cats`,
      `${publicUrl}${pagePath('gif', hiddenId)}`,
      'not a url',
    ]) {
      const response = await ask(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json(), url).toMatchObject({ success: false, error: { code: 'not_found' } });
    }
    expect((await ask(`${publicUrl}${pagePath('gif', gifId)}`, '&format=xml')).statusCode).toBe(
      501,
    );
    expect((await testApp.app.inject({ url: '/oembed' })).statusCode).toBe(400);
  });
});

describe('links of a private instance', () => {
  let testApp: TestApp;
  let distDir: string;
  let gifId: string;

  beforeAll(async () => {
    distDir = makeDist();
    testApp = await createTestApp(
      {
        PUBLIC_URL: publicUrl,
        ALLOWED_EMAIL_DOMAINS: 'example.com',
        // A private instance signs in through a real provider (never discovered here).
        OIDC_ISSUER: 'https://issuer.example',
        OIDC_CLIENT_ID: 'sticky',
        OIDC_CLIENT_SECRET: 'secret',
      },
      { webDistDir: distDir },
    );
    [gifId] = (await insertCatalogItems(testApp.database, [{ title: 'Team joke' }])) as [string];
  });
  afterAll(async () => {
    await testApp.close();
    if (distDir) fs.rmSync(distDir, { recursive: true, force: true });
  });

  it('shows crawlers nothing, and signed-in people the preview', async () => {
    const url = `/gif/team-joke-${gifId}`;
    const crawler = await testApp.app.inject({ url, headers: crawlers.slack });
    expect(crawler.statusCode).toBe(200);
    expect(crawler.body).not.toContain('og:');
    expect(crawler.headers['cache-control']).toBe('private, no-cache');
    const oembed = await testApp.app.inject({
      url: `/oembed?url=${encodeURIComponent(`${publicUrl}${url}`)}`,
    });
    expect(oembed.statusCode).toBe(401);

    const { cookie } = await signInAs(testApp, { email: 'ann@example.com' });
    const person = await testApp.app.inject({ url, headers: { accept: 'text/html', cookie } });
    expect(readMeta(person.body).get('og:title')).toBe('Team joke');
  });
});
