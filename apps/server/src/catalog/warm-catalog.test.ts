import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outputLines, startServerProcess, waitForExit } from '../test-support/processes.ts';
import { createTestDatabase, recordStatements } from '../test-support/database.ts';
import type { TestDatabase } from '../test-support/database.ts';
import { insertCatalogItems } from '../test-support/catalog-fixtures.ts';
import { warmCatalogTables } from './warm-catalog.ts';

/** How many of `relation`'s blocks are in the buffer cache (pg_buffercache). */
async function countCachedBlocks(database: TestDatabase, relation: string): Promise<number> {
  const { rows } = await database.pool.query<{ blocks: number }>(
    `SELECT count(*)::int AS blocks FROM pg_buffercache
     WHERE reldatabase = (SELECT oid FROM pg_database WHERE datname = current_database())
       AND relfilenode = pg_relation_filenode($1::regclass) AND relforknumber = 0`,
    [relation],
  );
  return rows[0]!.blocks;
}

async function countBlocks(database: TestDatabase, relation: string): Promise<number> {
  const { rows } = await database.pool.query<{ blocks: number }>(
    "SELECT (pg_relation_size($1::regclass) / current_setting('block_size')::int)::int AS blocks",
    [relation],
  );
  return rows[0]!.blocks;
}

describe('warmCatalogTables', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
    await insertCatalogItems(
      database,
      Array.from({ length: 300 }, (_, index) => ({
        title: `Warm item ${index} with a title long enough to fill some pages`,
        tags: ['warm', `tag ${index % 7}`],
        altText: 'An animated GIF kept in memory for the searches that read it. '.repeat(4),
      })),
    );
    await database.pool.query('CREATE EXTENSION IF NOT EXISTS pg_buffercache');
  });

  afterAll(async () => {
    await database?.destroy();
  });

  it('reads the items and their word indexes into the buffer cache, not the cold indexes', async () => {
    // PostgreSQL 18 can drop a relation's pages from the cache: start from none of them.
    for (const relation of ['items', 'items_gif_search_tier_idx']) {
      await database.pool.query('SELECT pg_buffercache_evict_relation($1::regclass)', [relation]);
      expect(await countCachedBlocks(database, relation)).toBe(0);
    }
    const items = await countBlocks(database, 'items');
    expect(items).toBeGreaterThan(2);

    const warmUp = await warmCatalogTables(database, { canInstall: true });

    expect(warmUp.isAvailable).toBe(true);
    expect(warmUp.skipped).toEqual([]);
    expect(warmUp.loaded).toEqual(
      expect.arrayContaining(['items', 'items_pkey', 'items_gif_search_tier_idx', 'search_terms']),
    );
    expect(warmUp.loaded).not.toContain('items_sha256_unique');
    expect(warmUp.loaded).not.toContain('items_title_trgm_idx');
    // The words' indexes come before the rows they point to, the items before the rest.
    expect(warmUp.loaded.indexOf('items_gif_search_tier_idx')).toBeLessThan(
      warmUp.loaded.indexOf('items'),
    );
    expect(warmUp.loaded.indexOf('items')).toBeLessThan(warmUp.loaded.indexOf('search_terms'));
    expect(await countCachedBlocks(database, 'items')).toBe(items);
    expect(await countCachedBlocks(database, 'items_gif_search_tier_idx')).toBe(
      await countBlocks(database, 'items_gif_search_tier_idx'),
    );
    expect(warmUp.bytes).toBeGreaterThanOrEqual(items * 8192);
  });

  it('stops when the app closes', async () => {
    await database.pool.query('SELECT pg_buffercache_evict_relation($1::regclass)', ['items']);
    const warmUp = await warmCatalogTables(database, { canInstall: true, isCancelled: () => true });
    expect(warmUp.loaded).toEqual([]);
    expect(await countCachedBlocks(database, 'items')).toBe(0);
  });

  it('never installs pg_prewarm in a database it does not own, and then reads nothing', async () => {
    const external = await createTestDatabase();
    try {
      const sent = await recordStatements(external, async () => {
        const warmUp = await warmCatalogTables(external, { canInstall: false });
        expect(warmUp).toMatchObject({ isAvailable: false, loaded: [], bytes: 0 });
      });
      expect(sent.map((statement) => statement.text).join('\n')).not.toMatch(
        /CREATE EXTENSION|pg_prewarm\(/,
      );
      const { rows } = await external.pool.query(
        "SELECT 1 FROM pg_extension WHERE extname = 'pg_prewarm'",
      );
      expect(rows).toEqual([]);
    } finally {
      await external.destroy();
    }
  });
});

describe('a server on its embedded PostgreSQL', () => {
  it('reads the catalog into the database’s memory as it starts, not a minute later', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-warm-'));
    // As root, PostgreSQL runs as another user that must be able to enter DATA_DIR.
    fs.chmodSync(dataDir, 0o755);
    const server = await startServerProcess({ DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    try {
      const isWarmed = (line: string) =>
        line.includes('read the catalog’s tables into the database’s memory');
      const deadline = Date.now() + 20_000;
      while (!outputLines(server).some(isWarmed) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const line = outputLines(server).find(isWarmed);
      expect(line, server.output()).toBeDefined();
      const logged = JSON.parse(line!) as { loaded: number; skipped: string[] };
      expect(logged.loaded).toBeGreaterThan(10);
      expect(logged.skipped).toEqual([]);
    } finally {
      server.child.kill('SIGTERM');
      await waitForExit(server.child);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
