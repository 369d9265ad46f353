import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  isProcessAlive,
  outputLines,
  startServerProcess,
  waitForExit,
} from './test-support/processes.ts';

/**
 * `npm start` stopped as a terminal stops it: Ctrl-C sends SIGINT to every process of the
 * foreground group. The server must stop what it started in order (its jobs, its pool, then
 * the embedded PostgreSQL), not find its database gone under it.
 */
describe('npm start stopped with Ctrl-C', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-ctrl-c-'));
  });
  // Whatever a failed run left running is ended, so no server or database outlives the test.
  const started: number[] = [];
  afterAll(() => {
    for (const pid of started) if (isProcessAlive(pid)) process.kill(pid, 'SIGKILL');
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('exits cleanly, without errors, and leaves no PostgreSQL running', async () => {
    fs.chmodSync(dataDir, 0o755);
    // With work under way, as on a first start: the starter catalog importing and rendering.
    const server = await startServerProcess(
      { DATA_DIR: dataDir, SEED_STARTER_CATALOG: 'true', LOG_LEVEL: 'info' },
      { isOwnGroup: true },
    );
    started.push(server.child.pid!);
    await expect
      .poll(() => server.output().includes('starter catalog progress'), { timeout: 60_000 })
      .toBe(true);
    const postmaster = Number(
      fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0],
    );
    started.push(postmaster);
    expect(isProcessAlive(postmaster)).toBe(true);

    process.kill(-server.child.pid!, 'SIGINT');

    expect(await waitForExit(server.child), server.output()).toBe(0);
    // No warning and no error on the way out.
    expect(outputLines(server).filter((line) => /"level":[4-6]0/.test(line))).toEqual([]);
    expect(isProcessAlive(postmaster)).toBe(false);
  }, 120_000);
});
