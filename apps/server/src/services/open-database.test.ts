import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/env.ts';
import { startServer } from '../server.ts';
import type { RunningServer } from '../server.ts';
import { createTestDatabase } from '../test-support/database.ts';
import type { TestDatabase } from '../test-support/database.ts';

/** Issue 16: no statement of the server may hold a connection for ever. */
describe("the server's database connections", () => {
  let database: TestDatabase;
  let server: RunningServer;
  let dataDir: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-open-database-'));
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      PORT: '0',
      PUBLIC_URL: 'http://localhost:3999',
      SESSION_SECRET: 'test-session-secret-that-is-long-enough-0123456789',
      SEED_STARTER_CATALOG: 'false',
      // Every statement of the server has it, its start's too: far above what any of those
      // takes on a busy machine, so only the test's own statement runs into it.
      DATABASE_STATEMENT_TIMEOUT_MS: '5000',
    });
    server = await startServer(config, pino({ level: 'silent' }));
  });
  afterAll(async () => {
    await server?.stop();
    await database?.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('have a statement_timeout (DATABASE_STATEMENT_TIMEOUT_MS): a longer statement is cancelled', async () => {
    const { rows } = await server.database.pool.query<{ statement_timeout: string }>(
      'SHOW statement_timeout',
    );
    expect(rows[0]!.statement_timeout).toBe('5s');
    await expect(server.database.pool.query('SELECT pg_sleep(600)')).rejects.toMatchObject({
      code: '57014',
    });
    // The connection is still good for the next statement, and the server still answers.
    expect((await server.database.pool.query('SELECT 1 AS one')).rows[0].one).toBe(1);
    const ready = await server.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
  });
});
