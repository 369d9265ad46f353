import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from './test-support/database.ts';
import type { TestDatabase } from './test-support/database.ts';
import { outputLines, spawnServerProcess, waitForExit } from './test-support/processes.ts';

/**
 * A start-up check that fails stops `npm start` with one line saying which setting and why, as
 * a bad setting does: no pino record, no stack (docs/scaling.md, "A read replica"). The bucket's
 * check has its own test in storage/media-store.test.ts.
 */
describe('npm start with a service it cannot use', () => {
  let database: TestDatabase;
  let dataDir: string;
  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-main-start-'));
  });
  afterAll(async () => {
    await database?.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('stops with one line when DATABASE_READ_URL is not a standby of DATABASE_URL', async () => {
    // The primary itself: it answers, but replays nothing.
    const server = await spawnServerProcess({
      DATABASE_URL: database.url,
      DATABASE_READ_URL: database.url,
      DATA_DIR: dataDir,
    });
    const code = await waitForExit(server.child);
    const lines = outputLines(server);
    expect(lines).toEqual([
      expect.stringMatching(
        /^DATABASE_READ_URL \(127\.0\.0\.1:\d+\/test_[0-9a-f]+\) cannot be used: it is not a standby \(pg_is_in_recovery\(\) is false\)\. Point it at a streaming replica of DATABASE_URL's server, or leave it unset\.$/,
      ),
    ]);
    expect(code).toBe(69);
  }, 60_000);
});
