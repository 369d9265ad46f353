import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from './database.ts';
import type { TestDatabase } from './database.ts';
import { useTempDir } from './files.ts';
import { startServerProcess, waitForExit } from './processes.ts';

/**
 * startServerProcess chooses a port before the server starts (PUBLIC_URL names it), so another
 * process can take it first: the start must go on elsewhere, and never take that process's
 * answer for the server's (docs/testing.md, "Server tests").
 */
describe('startServerProcess on a port another process took', () => {
  const dataDir = useTempDir('sticky-processes-');
  let database: TestDatabase;
  let impostor: http.Server;
  let impostorPort: number;

  beforeAll(async () => {
    database = await createTestDatabase();
    // Answers 200 to anything, /readyz included, as a stray server on that port might.
    impostor = http.createServer((_request, response) => response.end('{"status":"ok"}'));
    await new Promise<void>((resolve) => impostor.listen(0, '127.0.0.1', resolve));
    impostorPort = (impostor.address() as AddressInfo).port;
  }, 60_000);
  afterAll(async () => {
    await new Promise((resolve) => impostor?.close(resolve));
    await database?.destroy();
  });

  it('starts the server on another port, ready when the server itself answers', async () => {
    const server = await startServerProcess(
      { DATABASE_URL: database.url, DATA_DIR: dataDir() },
      { port: impostorPort },
    );
    try {
      expect(new URL(server.url).port).not.toBe(String(impostorPort));
      expect(server.output()).toContain(`Sticky is running at ${server.url}`);
      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ catalog: 'off' });
    } finally {
      server.child.kill('SIGTERM');
      await waitForExit(server.child);
    }
  }, 120_000);
});
