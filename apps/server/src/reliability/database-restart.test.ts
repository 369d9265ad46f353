import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { errorEnvelopeSchema } from '@sticky/contracts';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession, upsertUser } from '../auth/sessions.ts';
import { loadConfig } from '../config/env.ts';
import { findFreePort } from '../db/embedded.ts';
import { createLogger, startServer } from '../server.ts';
import type { RunningServer } from '../server.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The embedded PostgreSQL killed outright while a query is running in it: the server answers
 * 503 meanwhile and brings the database back by itself, without a restart, losing nothing it
 * acknowledged. (`npm run stress` does the same under 200 clients and times it.)
 */
describe('embedded PostgreSQL killed with -9 under a running query', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-db-kill-'));
  let server: RunningServer;
  let baseUrl: string;
  let cookie: string;

  beforeAll(async () => {
    fs.chmodSync(dataDir, 0o755);
    const port = await findFreePort();
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      PORT: String(port),
      SESSION_SECRET: 'test-session-secret-that-is-long-enough-0123456789',
      SEED_STARTER_CATALOG: 'false',
      LOG_LEVEL: 'silent',
    });
    server = await startServer(config, createLogger(config));
    baseUrl = `http://127.0.0.1:${port}`;
    const user = await upsertUser(server.database.db, {
      issuer: 'test',
      subject: 'db-kill',
      email: 'db-kill@example.com',
      name: 'Db Kill',
      picture: null,
    });
    cookie = `sticky_session=${await createSession(server.database.db, user.id)}`;
  }, 120_000);

  afterAll(async () => {
    const stopped = await Promise.race([
      server?.stop().then(() => 'stopped'),
      sleep(30_000).then(() => 'hung'),
    ]);
    fs.rmSync(dataDir, { recursive: true, force: true });
    expect(stopped).toBe('stopped');
  }, 60_000);

  const put = (id: string) =>
    fetch(`${baseUrl}/api/favorites/${id}`, {
      method: 'PUT',
      headers: { cookie, origin: server.url, 'sec-fetch-site': 'same-origin' },
    });

  it('answers 503 while it is gone, comes back by itself, keeps what it acknowledged', async () => {
    expect((await put('beforeKill')).status).toBe(200);

    // A long query keeps a backend busy: it outlives its postmaster unless someone ends it.
    const busy = new pg.Client({ connectionString: server.embedded!.url });
    busy.on('error', () => {});
    await busy.connect();
    const longQuery = busy
      .query('SELECT count(*) FROM generate_series(1, 2000000000)')
      .catch(() => undefined);
    await sleep(300);

    // And a transaction of the server's own pool, between two statements when it happens:
    // its connection dies with no query running (this used to end the whole process).
    let releaseTransaction = () => {};
    const held = new Promise<void>((resolve) => (releaseTransaction = resolve));
    let isInTransaction = () => {};
    const inTransaction = new Promise<void>((resolve) => (isInTransaction = resolve));
    const transaction = server.database.db
      .transaction(async (tx) => {
        await tx.execute(sql`SELECT 1`);
        isInTransaction();
        await held;
        await tx.execute(sql`SELECT 1`);
      })
      .then(
        () => 'committed',
        (error: Error) => error.message,
      );
    await inTransaction;

    const pid = server.embedded!.pid()!;
    const killedAt = Date.now();
    process.kill(pid, 'SIGKILL');
    await sleep(500);
    releaseTransaction();
    expect(await transaction).not.toBe('committed');

    let sawUnavailable = false;
    let recoveredAt: number | undefined;
    while (Date.now() - killedAt < 45_000) {
      const ready = await fetch(`${baseUrl}/readyz`).catch(() => undefined);
      if (ready?.status === 503) {
        sawUnavailable = true;
        const v1 = await fetch(`${baseUrl}/v1/gifs/trending`, { headers: { cookie } });
        if (v1.status === 503) {
          const body = errorEnvelopeSchema.parse(await v1.json());
          expect(body.meta).toMatchObject({
            status: 503,
            msg: 'The database is unavailable, please try again shortly.',
          });
        }
      }
      if (ready?.status === 200 && sawUnavailable) {
        recoveredAt = Date.now();
        break;
      }
      await sleep(100);
    }
    await longQuery;
    await busy.end().catch(() => {});

    expect(sawUnavailable).toBe(true);
    expect(recoveredAt, 'the database came back without a restart').toBeDefined();
    expect(server.embedded!.pid()).not.toBe(pid);
    expect((await put('afterKill')).status).toBe(200);
    const favorites = await fetch(`${baseUrl}/api/favorites`, { headers: { cookie } });
    expect(((await favorites.json()) as { ids: string[] }).ids.sort()).toEqual([
      'afterKill',
      'beforeKill',
    ]);
  }, 90_000);
});
