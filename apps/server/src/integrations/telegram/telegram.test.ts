import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import type { App } from '../../app.ts';
import { createMediaServices } from '../../catalog/import/media-services.ts';
import { loadConfig } from '../../config/env.ts';
import { connectDatabase } from '../../db/client.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { importMedia } from '../../catalog/import/import-media.ts';
import { items, renditions } from '../../db/schema.ts';
import { contentAddressedPath, hashContent } from '../../storage/media-paths.ts';
import { insertCatalogItems } from '../../test-support/catalog-fixtures.ts';
import { createTestDatabase } from '../../test-support/database.ts';
import { makeAnimation, summarizeMp4 } from '../../test-support/media.ts';
import type { TestDatabase } from '../../test-support/database.ts';
import { startFakeBotApi } from './fake-bot-api.ts';
import type { FakeBotApi } from './fake-bot-api.ts';
import type { InlineAnswer } from './inline-answers.ts';

const token = '987654321:AAHfakeTokenForTestsOnly_0123456789ab';
const publicUrl = 'https://gifs.example.com';

/** Every line every app of this file logged, as pino wrote it. */
const logLines: string[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  },
});

interface BotApp {
  app: App;
  close: () => Promise<void>;
}

/**
 * The real app (as server.ts builds it) with the bot on, its Bot API at `prefix` of the fake:
 * timings shortened so the tests wait for events, not for Telegram's defaults.
 */
async function startBotApp(options: {
  fake: FakeBotApi;
  prefix: string;
  database: DatabaseHandle;
  mediaDir: string;
  env?: Record<string, string>;
  pollSeconds?: number;
  requestTimeoutMs?: number;
}): Promise<BotApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-telegram-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    SESSION_SECRET: 'test-session-secret-that-is-long-enough-0123456789',
    SEED_STARTER_CATALOG: 'false',
    LOCAL_SIGN_IN: '1',
    ALLOWED_HOSTS: 'localhost,127.0.0.1',
    PUBLIC_URL: publicUrl,
    TELEGRAM_BOT_TOKEN: token,
    TELEGRAM_API_BASE: `${options.fake.url}/${options.prefix}`,
    ...options.env,
  });
  // One media folder for the instances, as a shared volume would be.
  config.mediaDir = options.mediaDir;
  const media = createMediaServices(config);
  const app = await buildApp(
    {
      config,
      database: options.database,
      media,
      sessionSecret: config.sessionSecret!,
      telegramOptions: {
        pollSeconds: options.pollSeconds ?? 1,
        backoffMs: 20,
        maxBackoffMs: 200,
        leaderRetryMs: 100,
        requestTimeoutMs: options.requestTimeoutMs ?? 2_000,
      },
    },
    { logger: pino({ level: 'debug' }, logStream) },
  );
  await app.ready();
  return {
    app,
    close: async () => {
      await app.close();
      await media.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Writes a file for an item's rendition where the media route serves it, and points the row at it. */
async function storeRendition(
  database: DatabaseHandle,
  mediaDir: string,
  itemId: string,
  name: string,
  format: 'mp4' | 'gif',
) {
  const bytes = Buffer.from(`${format} of ${name} of ${itemId}`);
  const relative = contentAddressedPath(hashContent(bytes), format);
  fs.mkdirSync(path.dirname(path.join(mediaDir, relative)), { recursive: true });
  fs.writeFileSync(path.join(mediaDir, relative), bytes);
  await database.db
    .update(renditions)
    .set({ path: relative, bytes: bytes.length })
    .where(
      and(eq(renditions.itemId, itemId), eq(renditions.name, name), eq(renditions.format, format)),
    );
}

let nextQueryId = 0;

/** Queues an inline query at the fake and waits for the bot's answer to it. */
async function ask(fake: FakeBotApi, query: string, offset = '', fromId = 42) {
  nextQueryId += 1;
  const id = `q${nextQueryId}`;
  fake.queueInlineQuery({ id, query, offset, fromId });
  await expect
    .poll(() => fake.answers().some((answer) => answer.inline_query_id === id), { timeout: 10_000 })
    .toBe(true);
  return fake.answers().find((answer) => answer.inline_query_id === id) as unknown as InlineAnswer;
}

const idsOf = (answer: InlineAnswer) => answer.results.map((result) => result.id);

describe('Telegram inline bot', () => {
  let fake: FakeBotApi;
  let database: TestDatabase;
  let mediaDir: string;
  let bot: BotApp;
  const catIds: string[] = [];
  const withheld: Record<string, string> = {};
  let gifOnlyId: string | undefined;

  beforeAll(async () => {
    fake = await startFakeBotApi();
    database = await createTestDatabase();
    mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-telegram-media-'));
    catIds.push(
      ...(await insertCatalogItems(
        database,
        Array.from({ length: 30 }, (_, index) => ({
          title: `Grumpy cat ${index}`,
          tags: ['cat'],
          hasMp4: true,
          trendScore: 100 - index,
        })),
      )),
    );
    for (const id of catIds) {
      await storeRendition(database, mediaDir, id, 'original', 'mp4');
      await storeRendition(database, mediaDir, id, 'fixed_width_still', 'gif');
    }
    const [privateId, unlistedId, hiddenId, adultId] = await insertCatalogItems(database, [
      { title: 'Grumpy cat private', tags: ['cat'], hasMp4: true, trendScore: 500 },
      { title: 'Grumpy cat unlisted', tags: ['cat'], hasMp4: true, trendScore: 500 },
      { title: 'Grumpy cat hidden', tags: ['cat'], hasMp4: true, trendScore: 500 },
      { title: 'Grumpy cat rated r', tags: ['cat'], hasMp4: true, trendScore: 500, rating: 'r' },
    ]);
    Object.assign(withheld, { privateId, unlistedId, hiddenId, adultId });
    // As the app marks them (uploads, moderation): out of every list, and the row says why.
    await database.db
      .update(items)
      .set({ visibility: 'private', isIndexable: false })
      .where(eq(items.id, privateId!));
    await database.db
      .update(items)
      .set({ visibility: 'unlisted', isIndexable: false })
      .where(eq(items.id, unlistedId!));
    await database.db
      .update(items)
      .set({ hiddenAt: new Date(), isIndexable: false })
      .where(eq(items.id, hiddenId!));
    [gifOnlyId] = await insertCatalogItems(database, [
      { title: 'Sleepy walrus', tags: ['walrus'] },
    ]);
    bot = await startBotApp({ fake, prefix: 'main', database, mediaDir });
  });

  afterAll(async () => {
    await bot?.close();
    await fake?.close();
    await database?.destroy();
    fs.rmSync(mediaDir, { recursive: true, force: true });
    // Whatever happened in this file, the token never reached a log line.
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.filter((line) => line.includes(token.split(':')[1]!))).toEqual([]);
  });

  it('answers an inline query with MP4 results the server serves, thumbnails and sizes', async () => {
    const answer = await ask(fake, 'grumpy cat');
    expect(answer.is_personal).toBe(false);
    expect(answer.cache_time).toBe(300);
    expect(answer.results).toHaveLength(25);
    for (const result of answer.results) {
      expect(result.type).toBe('mpeg4_gif');
      if (result.type !== 'mpeg4_gif') continue;
      expect(catIds).toContain(result.id);
      expect(result.title).toMatch(/^Grumpy cat \d+$/);
      expect(result.mpeg4_width).toBe(480);
      expect(result.mpeg4_height).toBe(360);
      expect(result.mpeg4_duration).toBe(1);
      expect(result.thumbnail_mime_type).toBe('image/gif');
      expect(result.mpeg4_url.startsWith(`${publicUrl}/media/`)).toBe(true);
    }
    // Telegram fetches these URLs itself: the app serves each, with its type.
    for (const result of answer.results.slice(0, 5)) {
      if (result.type !== 'mpeg4_gif') continue;
      const video = await bot.app.inject(new URL(result.mpeg4_url).pathname);
      expect(video.statusCode).toBe(200);
      expect(video.headers['content-type']).toBe('video/mp4');
      const thumbnail = await bot.app.inject(new URL(result.thumbnail_url).pathname);
      expect(thumbnail.statusCode).toBe(200);
      expect(thumbnail.headers['content-type']).toBe('image/gif');
    }
  });

  it('sends the MP4 an import made, which the app serves as a video track', async () => {
    const { config, database: handle, media, services } = bot.app.deps;
    const outcome = await importMedia(
      { config, database: handle, media, services },
      {
        bytes: await makeAnimation({ frames: 8, width: 64, height: 48 }),
        fileName: 'flamingo.gif',
        metadata: { title: 'Dancing flamingo', tags: ['flamingo'], type: 'gif' },
      },
    );
    expect(outcome.status).toBe('imported');
    const answer = await ask(fake, 'flamingo');
    expect(answer.results).toHaveLength(1);
    const [result] = answer.results;
    if (result?.type !== 'mpeg4_gif') throw new Error(`expected an mpeg4_gif, got ${result?.type}`);
    expect(result).toMatchObject({ title: 'Dancing flamingo', mpeg4_width: 64, mpeg4_height: 48 });
    const video = await bot.app.inject(new URL(result.mpeg4_url).pathname);
    expect(video.statusCode).toBe(200);
    expect(video.headers['content-type']).toBe('video/mp4');
    const summary = summarizeMp4(video.rawPayload);
    expect(summary.tracks).toEqual(['vide']);
    expect(summary.samples).toBeGreaterThan(1);
    const thumbnail = await bot.app.inject(new URL(result.thumbnail_url).pathname);
    expect(thumbnail.statusCode).toBe(200);
    expect(thumbnail.headers['content-type']).toBe(result.thumbnail_mime_type);
  });

  it('pages with next_offset without repeats, and never shows a private, unlisted, hidden or adult item', async () => {
    const first = await ask(fake, 'grumpy cat');
    expect(first.next_offset).toBe('25');
    const second = await ask(fake, 'grumpy cat', first.next_offset);
    expect(second.results).toHaveLength(5);
    expect(second.next_offset).toBe('');
    const seen = [...idsOf(first), ...idsOf(second)];
    expect(new Set(seen).size).toBe(30);
    expect(seen.sort()).toEqual([...catIds].sort());
    const trending = await ask(fake, '');
    const typo = await ask(fake, 'grumpy catt');
    for (const answer of [first, second, trending, typo]) {
      for (const id of Object.values(withheld)) expect(idsOf(answer)).not.toContain(id);
    }
    expect(idsOf(typo)).toHaveLength(25);
  });

  it('answers an empty query with trending, cached for a shorter time', async () => {
    const answer = await ask(fake, '');
    expect(answer.cache_time).toBe(60);
    // Most popular first, as the web app's trending.
    expect(idsOf(answer).slice(0, 3)).toEqual(catIds.slice(0, 3));
    expect(answer.next_offset).toBe('25');
  });

  it('answers a GIF result for an item without an MP4, and says when nothing matches', async () => {
    const walrus = await ask(fake, 'walrus');
    expect(walrus.results).toEqual([
      expect.objectContaining({ type: 'gif', id: gifOnlyId, title: 'Sleepy walrus' }),
    ]);
    const nothing = await ask(fake, 'xylophone');
    expect(nothing.results).toEqual([]);
    expect(nothing.button).toEqual({
      text: 'No GIFs found for “xylophone”',
      start_parameter: 'no_match',
    });
  });

  it('confirms each update with the next offset: every query is answered once', async () => {
    const before = fake.answers().length;
    const ids = ['burst-1', 'burst-2', 'burst-3'];
    for (const id of ids) fake.queueInlineQuery({ id, query: 'grumpy' });
    await expect
      .poll(() => ids.every((id) => fake.answers().some((a) => a.inline_query_id === id)), {
        timeout: 10_000,
      })
      .toBe(true);
    // A few more polls: an update not confirmed would be handed out, and answered, again.
    const polls = fake.pollsOf('main');
    await expect.poll(() => fake.pollsOf('main'), { timeout: 10_000 }).toBeGreaterThan(polls + 1);
    const answered = fake.answers().map((answer) => answer.inline_query_id);
    expect(new Set(answered).size).toBe(answered.length);
    expect(answered.length).toBe(before + 3);
    const offsets = fake.calls
      .filter((call) => call.prefix === 'main' && call.method === 'getUpdates')
      .map((call) => call.body.offset as number | undefined)
      .filter((offset) => offset !== undefined);
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
  });

  it('records the last update it saw for the admin page', () => {
    const status = bot.app.deps.telegram.readStatus();
    expect(status).toMatchObject({
      platform: 'telegram',
      isConfigured: true,
      endpoints: [],
      lastRequest: { isVerified: true },
    });
    expect(Date.now() - Date.parse(status.lastRequest!.at)).toBeLessThan(60_000);
    expect(status.setupSteps.join('\n')).toContain('/setinline');
  });

  it('keeps polling through 5xx answers and timeouts, backing off, and answers afterwards', async () => {
    const warningsBefore = logLines.filter((line) => line.includes('polling failed')).length;
    fake.failNext(
      { kind: 'status', status: 502 },
      { kind: 'status', status: 503 },
      { kind: 'silence' },
      { kind: 'status', status: 500 },
    );
    // The poll open now ends first; the four after it fail.
    await expect.poll(() => fake.pendingFailures, { timeout: 20_000 }).toBe(0);
    const answer = await ask(fake, 'grumpy cat');
    expect(answer.results).toHaveLength(25);
    const warnings = logLines
      .filter((line) => line.includes('polling failed'))
      .slice(warningsBefore)
      .map((line) => JSON.parse(line) as { retryInMs: number; failures: number; msg: string });
    expect(warnings.map((warning) => warning.failures)).toEqual([1, 2, 3, 4]);
    // Each pause longer than the last (doubling, with ±20 % jitter).
    for (let index = 1; index < warnings.length; index += 1) {
      expect(warnings[index]!.retryInMs).toBeGreaterThan(warnings[index - 1]!.retryInMs);
    }
    expect(warnings[2]!.msg).toContain('timed out');
    expect(warnings[0]!.msg).toContain('502');
  });
});

describe('Telegram per-user limit', () => {
  it('answers nothing, unkept, past TELEGRAM_QUERIES_PER_USER_PER_MINUTE; others still get answers', async () => {
    const fake = await startFakeBotApi();
    const database = await createTestDatabase();
    const mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-telegram-media-'));
    await insertCatalogItems(database, [{ title: 'Happy dog', tags: ['dog'], hasMp4: true }]);
    const bot = await startBotApp({
      fake,
      prefix: 'limits',
      database,
      mediaDir,
      env: { TELEGRAM_QUERIES_PER_USER_PER_MINUTE: '2' },
    });
    try {
      const first = await ask(fake, 'dog', '', 7);
      const second = await ask(fake, 'dog', '', 7);
      const third = await ask(fake, 'dog', '', 7);
      const someoneElse = await ask(fake, 'dog', '', 8);
      expect([first, second].map((answer) => answer.results.length)).toEqual([1, 1]);
      expect(third).toMatchObject({
        results: [],
        cache_time: 0,
        is_personal: true,
        button: { text: 'Too many searches: try again in a minute' },
      });
      expect(someoneElse.results).toHaveLength(1);
    } finally {
      await bot.close();
      await fake.close();
      await database.destroy();
      fs.rmSync(mediaDir, { recursive: true, force: true });
    }
  });
});

describe('Telegram polling across instances and on close', () => {
  let fake: FakeBotApi;
  let database: TestDatabase;
  let secondHandle: DatabaseHandle;
  let mediaDir: string;

  beforeAll(async () => {
    fake = await startFakeBotApi();
    database = await createTestDatabase();
    secondHandle = connectDatabase(database.url);
    mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-telegram-media-'));
    await insertCatalogItems(database, [{ title: 'Dancing llama', tags: ['llama'], hasMp4: true }]);
  });

  afterAll(async () => {
    await secondHandle?.close();
    await fake?.close();
    await database?.destroy();
    fs.rmSync(mediaDir, { recursive: true, force: true });
  });

  it('polls from one instance of two on a database, and the other takes over when it closes', async () => {
    const first = await startBotApp({ fake, prefix: 'first', database, mediaDir });
    await expect.poll(() => fake.pollsOf('first'), { timeout: 10_000 }).toBeGreaterThan(0);
    const second = await startBotApp({ fake, prefix: 'second', database: secondHandle, mediaDir });
    try {
      // Three more long polls of the first (a second each) while the second waits its turn.
      const polled = fake.pollsOf('first');
      await expect
        .poll(() => fake.pollsOf('first'), { timeout: 15_000 })
        .toBeGreaterThan(polled + 2);
      expect(fake.pollsOf('second')).toBe(0);
      expect(fake.mostOpenPolls).toBe(1);
      expect((await ask(fake, 'llama')).results).toHaveLength(1);

      await first.close();
      const firstPolls = fake.pollsOf('first');
      await expect.poll(() => fake.pollsOf('second'), { timeout: 10_000 }).toBeGreaterThan(0);
      expect((await ask(fake, 'llama')).results).toHaveLength(1);
      expect(fake.pollsOf('first')).toBe(firstPolls);
      expect(fake.mostOpenPolls).toBe(1);
    } finally {
      await first.close().catch(() => {});
      await second.close();
    }
  });

  it('hands polling over when the polling instance loses its database session (as when it is killed)', async () => {
    const first = await startBotApp({ fake, prefix: 'killed', database, mediaDir });
    const second = await startBotApp({
      fake,
      prefix: 'survivor',
      database: secondHandle,
      mediaDir,
    });
    try {
      await expect.poll(() => fake.pollsOf('killed'), { timeout: 10_000 }).toBeGreaterThan(0);
      expect(fake.pollsOf('survivor')).toBe(0);
      // The lock's session ends as a killed process's does: PostgreSQL lets go of the lock.
      const terminated = await database.pool.query<{ pid: number }>(
        `SELECT pg_terminate_backend(pid), pid FROM pg_locks
         WHERE locktype = 'advisory' AND granted
           AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      );
      expect(terminated.rows).toHaveLength(1);
      await expect.poll(() => fake.pollsOf('survivor'), { timeout: 10_000 }).toBeGreaterThan(0);
      // The first notices at its next poll and waits its turn again.
      const stoppedAt = fake.pollsOf('killed');
      await expect
        .poll(() => fake.pollsOf('survivor'), { timeout: 15_000 })
        .toBeGreaterThan(fake.pollsOf('survivor') + 2);
      expect(fake.pollsOf('killed')).toBeLessThanOrEqual(stoppedAt + 1);
      expect((await ask(fake, 'llama')).results).toHaveLength(1);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('stops polling at once when the app closes, in the middle of a long poll', async () => {
    const bot = await startBotApp({
      fake,
      prefix: 'closing',
      database,
      mediaDir,
      pollSeconds: 60,
    });
    await expect.poll(() => fake.openPolls, { timeout: 10_000 }).toBe(1);
    const abandoned = fake.abandonedPolls;
    await bot.close();
    // The held request was dropped by the app, not answered by the fake's 60 s timeout.
    expect(fake.abandonedPolls).toBe(abandoned + 1);
    expect(fake.openPolls).toBe(0);
    const polls = fake.pollsOf('closing');
    await new Promise((resolve) => setImmediate(resolve));
    expect(fake.pollsOf('closing')).toBe(polls);
  });

  it('warns once at start when Telegram could not fetch the media URLs', async () => {
    const before = logLines.length;
    const bot = await startBotApp({
      fake,
      prefix: 'loopback',
      database,
      mediaDir,
      env: { PUBLIC_URL: 'http://localhost:3000' },
    });
    await bot.close();
    const warnings = logLines
      .slice(before)
      .filter((line) => line.includes('which Telegram cannot reach'));
    expect(warnings).toHaveLength(1);
    expect(bot.app.deps.telegram.readStatus().setupSteps.join('\n')).toContain(
      'is not reachable from the internet',
    );
  });
});

describe('Telegram off', () => {
  it('neither polls nor warns without TELEGRAM_BOT_TOKEN, and the admin page says so', async () => {
    const fake = await startFakeBotApi();
    const database = await createTestDatabase();
    const mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-telegram-media-'));
    const bot = await startBotApp({
      fake,
      prefix: 'off',
      database,
      mediaDir,
      env: { TELEGRAM_BOT_TOKEN: '' },
    });
    try {
      expect(bot.app.deps.telegram.readStatus()).toMatchObject({
        platform: 'telegram',
        isConfigured: false,
        endpoints: [],
        lastRequest: null,
      });
      expect(fake.calls).toEqual([]);
    } finally {
      await bot.close();
      await fake.close();
      await database.destroy();
      fs.rmSync(mediaDir, { recursive: true, force: true });
    }
  });
});
