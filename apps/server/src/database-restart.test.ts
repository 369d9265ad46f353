import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { apiErrorSchema, errorEnvelopeSchema } from '@sticky/contracts';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession, upsertUser } from './auth/sessions.ts';
import { loadConfig } from './config/env.ts';
import { createLogger, startServer } from './server.ts';
import type { RunningServer } from './server.ts';
import { isProcessAlive } from './lib/process-alive.ts';

/** A promise and the function that settles it: for waiting on an event, not on time. */
function signal(): { promise: Promise<void>; fire: () => void } {
  let fire = () => {};
  const promise = new Promise<void>((resolve) => (fire = resolve));
  return { promise, fire };
}

/**
 * The embedded PostgreSQL killed outright while a query is running in it: the server answers
 * 503 meanwhile and brings the database back by itself, without a restart, losing nothing it
 * acknowledged. (`npm run stress` does the same under 200 clients and times it.)
 */
describe('embedded PostgreSQL killed with -9 under a running query', () => {
  let dataDir: string;
  let server: RunningServer;
  let baseUrl: string;
  let cookie: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-db-kill-'));
    fs.chmodSync(dataDir, 0o755);
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      // A port the system picks when the server listens: read back below.
      PORT: '0',
      HOST: '127.0.0.1',
      PUBLIC_URL: 'http://127.0.0.1',
      SESSION_SECRET: 'test-session-secret-that-is-long-enough-0123456789',
      SEED_STARTER_CATALOG: 'false',
      LOG_LEVEL: 'silent',
    });
    server = await startServer(config, createLogger(config));
    baseUrl = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
    const user = await upsertUser(server.database.db, config, {
      issuer: 'test',
      subject: 'db-kill',
      email: 'db-kill@example.com',
      name: 'Db Kill',
      picture: null,
    });
    cookie = `sticky_session=${await createSession(server.database.db, user.id)}`;
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  const put = (id: string) =>
    fetch(`${baseUrl}/api/favorites/${id}`, {
      method: 'PUT',
      headers: { cookie, origin: server.url, 'sec-fetch-site': 'same-origin' },
    });
  const readyStatus = async () => (await fetch(`${baseUrl}/readyz`)).status;

  it('answers 503 while it is gone, comes back by itself, keeps what it acknowledged', async () => {
    expect((await put('beforeKill')).status).toBe(200);
    const embedded = server.embedded!;

    // The server's own restart waits for the test's go, so the outage lasts exactly as long
    // as the test looks at it.
    const restartAsked = signal();
    const mayRestart = signal();
    const restart = embedded.restart;
    embedded.restart = async () => {
      restartAsked.fire();
      await mayRestart.promise;
      await restart();
    };

    // A long query keeps a backend busy: it outlives its postmaster unless someone ends it.
    const busy = new pg.Client({ connectionString: embedded.url });
    busy.on('error', () => {});
    await busy.connect();
    const longQuery = busy
      .query('SELECT count(*) FROM generate_series(1, 2000000000) /* db-kill-busy */')
      .catch(() => undefined);
    await expect
      .poll(async () => {
        const { rows } = await server.database.pool.query(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%db-kill-busy%' AND pid <> pg_backend_pid()",
        );
        return rows[0].n;
      })
      .toBe(1);

    // And a transaction of the server's own pool, between two statements when it happens:
    // its connection dies with no query running (this used to end the whole process).
    const inTransaction = signal();
    const releaseTransaction = signal();
    let backendPid = 0;
    const transaction = server.database.db
      .transaction(async (tx) => {
        const { rows } = await tx.execute<{ pid: number }>(sql`SELECT pg_backend_pid() AS pid`);
        backendPid = rows[0]!.pid;
        inTransaction.fire();
        await releaseTransaction.promise;
        await tx.execute(sql`SELECT 1`);
      })
      .then(
        () => 'committed',
        (error: Error) => error.message,
      );
    await inTransaction.promise;

    const pid = embedded.pid()!;
    process.kill(pid, 'SIGKILL');
    // The server has seen PostgreSQL die and wants it back: from here until the go, it is down.
    await restartAsked.promise;
    // The transaction's backend ends once it notices its postmaster is gone: on a busy machine
    // a moment later. Its next statement is sent only then, so it finds the connection dead.
    await expect.poll(() => isProcessAlive(backendPid), { timeout: 30_000 }).toBe(false);
    releaseTransaction.fire();
    expect(await transaction).not.toBe('committed');

    expect(await readyStatus()).toBe(503);
    const v1 = await fetch(`${baseUrl}/v1/gifs/trending`, { headers: { cookie } });
    expect(v1.status).toBe(503);
    expect(v1.headers.get('retry-after')).toBe('5');
    expect(errorEnvelopeSchema.parse(await v1.json()).meta).toMatchObject({
      status: 503,
      msg: 'The database is unavailable, please try again shortly.',
    });
    const refused = await put('duringOutage');
    expect(refused.status).toBe(503);
    expect(apiErrorSchema.parse(await refused.json()).error.code).toBe('unavailable');

    mayRestart.fire();
    await expect.poll(readyStatus, { timeout: 45_000, interval: 100 }).toBe(200);
    await longQuery;
    await busy.end().catch(() => {});

    expect(embedded.pid()).not.toBe(pid);
    expect((await put('afterKill')).status).toBe(200);
    const favorites = await fetch(`${baseUrl}/api/favorites`, { headers: { cookie } });
    expect(((await favorites.json()) as { ids: string[] }).ids.sort()).toEqual([
      'afterKill',
      'beforeKill',
    ]);
  }, 90_000);
});
