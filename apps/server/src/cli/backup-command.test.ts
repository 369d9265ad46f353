import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { create as createTar, extract as extractTar } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/env.ts';
import { startServer } from '../server.ts';
import type { RunningServer } from '../server.ts';
import { createTestApp } from '../test-support/app.ts';
import type { TestApp } from '../test-support/app.ts';
import { createTestDatabase } from '../test-support/database.ts';
import type { TestDatabase } from '../test-support/database.ts';
import { runCli } from '../test-support/processes.ts';
import { signInAs } from '../test-support/sign-in.ts';
import {
  makeAnimation,
  postUploads,
  sameSiteHeaders,
  waitForUploads,
} from '../test-support/uploads.ts';

const sessionSecret = 'test-session-secret-that-is-long-enough-0123456789';
const admin = 'boss@example.com';

/** An empty instance to restore into: a migrated database without rows, an empty DATA_DIR. */
interface Target {
  database: TestDatabase;
  dataDir: string;
  env: Record<string, string>;
  close: () => Promise<void>;
}

async function createTarget(): Promise<Target> {
  const database = await createTestDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-restore-'));
  return {
    database,
    dataDir,
    env: { DATABASE_URL: database.url, DATA_DIR: dataDir, SEED_STARTER_CATALOG: 'false' },
    close: async () => {
      await database.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Nothing of an instance: no rows that make one, no media file, no staging folder left. */
async function expectEmpty(target: Target): Promise<void> {
  const { rows } = await target.database.pool.query<{ n: number }>(
    `SELECT (SELECT count(*) FROM users) + (SELECT count(*) FROM items)
            + (SELECT count(*) FROM uploads) + (SELECT count(*) FROM favorites) AS n`,
  );
  expect(Number(rows[0]!.n)).toBe(0);
  const leftovers = fs.existsSync(target.dataDir)
    ? (fs.readdirSync(target.dataDir, { recursive: true }) as string[]).filter((entry) =>
        fs.statSync(path.join(target.dataDir, entry)).isFile(),
      )
    : [];
  expect(leftovers.filter((entry) => !entry.startsWith('pg'))).toEqual([]);
}

describe('npm run sticky -- backup / restore', () => {
  let source: TestApp;
  let target: Target;
  let restored: RunningServer;
  let workDir: string;
  let archive: string;
  let cookie: string;
  let bearer: string;
  let itemIds: string[];
  let hiddenId: string;

  beforeAll(async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-backup-'));
    source = await createTestApp({ ADMIN_EMAILS: admin }, { hasJobs: true });
    cookie = (await signInAs(source, { email: admin, name: 'Boss' })).cookie;
    const auth = sameSiteHeaders(source, cookie);
    const files = await Promise.all(
      ['one', 'two', 'three'].map(async (name) => ({
        name: `${name}.gif`,
        bytes: await makeAnimation({ format: 'gif' }),
      })),
    );
    const posted = await postUploads(source, auth, files, { tags: 'backup' });
    expect(posted.statusCode, posted.body).toBe(202);
    const uploads = await waitForUploads(source, auth);
    expect(uploads.map((upload) => upload.state)).toEqual(['ready', 'ready', 'ready']);
    itemIds = uploads.map((upload) => upload.itemId!).sort();
    hiddenId = itemIds[0]!;
    const hidden = await source.app.inject({
      method: 'PATCH',
      url: `/api/items/${hiddenId}`,
      headers: { ...auth, 'content-type': 'application/json' },
      payload: { isHidden: true },
    });
    expect(hidden.statusCode, hidden.body).toBe(200);
    const favorite = await source.app.inject({
      method: 'PUT',
      url: `/api/favorites/${itemIds[1]}`,
      headers: auth,
    });
    expect(favorite.statusCode, favorite.body).toBeLessThan(300);
    const token = await source.app.inject({
      method: 'POST',
      url: '/api/tokens',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: { name: 'ShareX' },
    });
    expect(token.statusCode, token.body).toBe(201);
    bearer = `Bearer ${token.json().secret}`;

    // Backed up while the source app runs, as a server would.
    archive = path.join(workDir, 'sticky.tar.gz');
    const backup = await runCli(['backup', archive], {
      DATABASE_URL: source.database.url,
      DATA_DIR: source.dataDir,
      SEED_STARTER_CATALOG: 'false',
    });
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(
      /Backed up 3 items, 1 person, 3 uploads, 1 favorite and \d+ media files/,
    );

    target = await createTarget();
    const restore = await runCli(['restore', archive], target.env);
    expect(restore.code, restore.stderr).toBe(0);
    restored = await startServer(
      loadConfig({
        ...target.env,
        NODE_ENV: 'test',
        PORT: '0',
        PUBLIC_URL: source.config.publicUrl,
        SESSION_SECRET: sessionSecret,
        LOG_LEVEL: 'silent',
        LOCAL_SIGN_IN: '1',
        ALLOWED_HOSTS: 'localhost,127.0.0.1',
        ADMIN_EMAILS: admin,
      }),
      pino({ level: 'silent' }),
    );
  }, 240_000);
  afterAll(async () => {
    await restored?.stop();
    await target?.close();
    await source?.close();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  const both = async (request: { url: string; headers?: Record<string, string> }) => {
    const [before, after] = await Promise.all([
      source.app.inject(request),
      restored.app.inject(request),
    ]);
    return { before, after };
  };

  it('serves the same items, the hidden one hidden, with their media files', async () => {
    const { before, after } = await both({
      url: `/v1/gifs?ids=${itemIds.join(',')}`,
      headers: { cookie },
    });
    expect(after.statusCode).toBe(200);
    const shown = (response: typeof before) =>
      (
        response.json().data as Array<{
          id: string;
          title: string;
          images: { original: { url: string } };
        }>
      )
        .map((item) => ({ id: item.id, title: item.title, url: item.images.original.url }))
        .sort((a, b) => a.id.localeCompare(b.id));
    expect(shown(after)).toEqual(shown(before));
    expect(shown(after).map((item) => item.id)).not.toContain(hiddenId);
    expect(shown(after)).toHaveLength(2);

    for (const item of shown(after)) {
      const file = new URL(item.url).pathname;
      const served = await both({ url: file });
      expect(served.after.statusCode, file).toBe(200);
      expect(served.after.rawPayload.equals(served.before.rawPayload)).toBe(true);
    }
  });

  it('keeps the session cookie, the favorites and the API token working', async () => {
    const favorites = await both({ url: '/api/favorites', headers: { cookie } });
    expect(favorites.after.statusCode).toBe(200);
    expect(favorites.after.json()).toEqual(favorites.before.json());
    expect(favorites.after.json().ids).toEqual([itemIds[1]]);

    const uploads = await both({
      url: '/api/uploads?limit=100',
      headers: { authorization: bearer },
    });
    expect(uploads.after.statusCode).toBe(200);
    const states = (response: typeof uploads.after) =>
      (response.json().uploads as Array<{ itemId: string; state: string }>)
        .map(({ itemId, state }) => ({ itemId, state }))
        .sort((a, b) => a.itemId.localeCompare(b.itemId));
    expect(states(uploads.after)).toEqual(states(uploads.before));
    expect(states(uploads.after).find((upload) => upload.itemId === hiddenId)?.state).toBe(
      'hidden',
    );
  });

  it('refuses to restore over an instance unless --force', async () => {
    const again = await runCli(['restore', archive], target.env);
    expect(again.code).not.toBe(0);
    expect(again.stderr.trim()).toMatch(/already holds an instance.*--force/);
  });

  it('refuses a truncated archive with one line, and leaves the target empty', async () => {
    const bytes = fs.readFileSync(archive);
    const truncated = path.join(workDir, 'truncated.tar.gz');
    fs.writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    const empty = await createTarget();
    try {
      const result = await runCli(['restore', truncated], empty.env);
      expect(result.code).not.toBe(0);
      expect(result.stderr.trim().split('\n'), result.stderr).toHaveLength(1);
      expect(result.stderr).toMatch(
        /truncated\.tar\.gz is truncated or damaged .*nothing was restored/,
      );
      await expectEmpty(empty);
    } finally {
      await empty.close();
    }
  });

  it('refuses an altered archive with one line naming the file, and leaves the target empty', async () => {
    const unpacked = path.join(workDir, 'unpacked');
    fs.mkdirSync(unpacked);
    await extractTar({ file: archive, cwd: unpacked });
    const entries = (fs.readdirSync(unpacked, { recursive: true }) as string[]).filter((entry) =>
      fs.statSync(path.join(unpacked, entry)).isFile(),
    );
    const media = entries.find((entry) => entry.startsWith('media'))!;
    const file = path.join(unpacked, media);
    const bytes = fs.readFileSync(file);
    bytes[bytes.length - 2] = bytes[bytes.length - 2]! ^ 0xff;
    fs.writeFileSync(file, bytes);
    const altered = path.join(workDir, 'altered.tar.gz');
    await createTar({ gzip: true, file: altered, cwd: unpacked }, entries);
    const empty = await createTarget();
    try {
      const result = await runCli(['restore', altered], empty.env);
      expect(result.code).not.toBe(0);
      expect(result.stderr.trim().split('\n'), result.stderr).toHaveLength(1);
      expect(result.stderr.trim()).toBe(
        `The archive altered.tar.gz is altered: ${media.split(path.sep).join('/')} does not match its checksum; nothing was restored.`,
      );
      await expectEmpty(empty);
    } finally {
      await empty.close();
    }
  });
});
