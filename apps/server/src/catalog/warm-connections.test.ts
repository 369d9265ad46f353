import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../db/client.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { createTestApp } from '../test-support/app.ts';
import type { TestApp } from '../test-support/app.ts';
import { insertCatalogItems } from '../test-support/catalog-fixtures.ts';
import { countStatements } from '../test-support/database.ts';
import { searchItemIds } from './query/search.ts';
import { warmCatalogConnections } from './warm-connections.ts';

describe('warming the kept connections', () => {
  let testApp: TestApp;
  let kept: DatabaseHandle;
  beforeAll(async () => {
    testApp = await createTestApp();
    await insertCatalogItems(testApp.database, [
      { title: 'Happy dance', tags: ['happy'] },
      { title: 'Happy cat', tags: ['happy', 'cat'], trendScore: 2 },
    ]);
    kept = connectDatabase(testApp.database.url, { keptConnections: 2 });
  });
  afterAll(async () => {
    await kept?.close();
    await testApp?.close();
  });

  it('leaves each connection with the catalog’s statements prepared, and keeps no ranking', async () => {
    const { config, services } = testApp.app.deps;
    await warmCatalogConnections({ config, database: kept, services }, 2);
    expect(kept.pool.totalCount).toBe(2);
    expect(kept.pool.idleCount).toBe(2);
    // Both at once: each is one of the two warmed.
    const clients = await Promise.all([kept.pool.connect(), kept.pool.connect()]);
    try {
      expect(kept.pool.totalCount).toBe(2);
      for (const client of clients) {
        const { rows } = await client.query<{ statement: string }>(
          `SELECT statement FROM pg_prepared_statements WHERE name LIKE 'sticky_%'`,
        );
        const statements = rows.map((row) => row.statement).join('\n');
        // A page's documents and related's lists: the first request skips parsing and planning.
        expect(statements).toContain('FROM item_documents d');
        expect(statements).toContain('FROM related_keys k');
      }
    } finally {
      for (const client of clients) client.release();
    }
    // The warm-up's searches were its own: the app still ranks "happy" when asked.
    const search = () =>
      searchItemIds(testApp.app.deps, { q: 'happy', types: ['gif'], limit: 25, offset: 0 });
    expect(await countStatements(testApp.database, search)).toBeGreaterThan(0);
    expect((await search()).rows).toHaveLength(2);
  });

  it('gives back the connections it got when it cannot get them all', async () => {
    // One connection for two: the second waits out the pool's 5 s and fails.
    const small = connectDatabase(testApp.database.url, { max: 1, keptConnections: 1 });
    try {
      const { config, services } = testApp.app.deps;
      await expect(
        warmCatalogConnections({ config, database: small, services }, 2),
      ).rejects.toThrow(/timeout/);
      const { rows } = await small.pool.query<{ one: number }>('SELECT 1 AS one');
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      await small.close();
    }
  }, 15_000);
});
