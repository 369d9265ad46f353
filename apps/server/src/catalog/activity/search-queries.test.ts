import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test-support/app.ts';
import type { TestApp } from '../../test-support/app.ts';
import { listTrendingSearches } from '../query/trending.ts';
import { hasSearchOperators, recordSearchQuery } from './search-queries.ts';

/**
 * Issue 16: trending searches counted requests, so one person repeating a query made it
 * trend; operators were recorded as queries; the table grew forever.
 */
describe('trending searches', () => {
  let testApp: TestApp;

  beforeEach(async () => {
    testApp = await createTestApp();
  });
  afterEach(async () => {
    await testApp?.close();
  });

  const record = (q: string, requester: { userId?: string; apiKey?: string; address?: string }) =>
    recordSearchQuery(testApp.app.deps, q, { address: '203.0.113.7', ...requester });
  const countOf = async (query: string) => {
    const result = await testApp.database.db.execute<{ count: number }>(
      sql`SELECT count FROM search_queries WHERE query = ${query}`,
    );
    return result.rows[0]?.count ?? 0;
  };

  it('counts people, not requests: one person searching again and again counts once a day', async () => {
    for (let time = 0; time < 5; time += 1) await record('Dancing  Cat', { userId: 'alice' });
    expect(await countOf('dancing cat')).toBe(1);
    expect(await listTrendingSearches(testApp.app.deps)).not.toContain('dancing cat');

    await record('dancing cat', { userId: 'bob' });
    // An app's api_key from two addresses: two people.
    await record('dancing cat', { apiKey: 'k'.repeat(40), address: '198.51.100.1' });
    await record('dancing cat', { apiKey: 'k'.repeat(40), address: '198.51.100.2' });
    await record('dancing cat', { apiKey: 'k'.repeat(40), address: '198.51.100.2' });
    expect(await countOf('dancing cat')).toBe(4);
    expect((await listTrendingSearches(testApp.app.deps))[0]).toBe('dancing cat');

    // Who searched is kept as a keyed digest, never the id, key or address.
    const stored = await testApp.database.db.execute<{ searcher: string }>(
      sql`SELECT searcher FROM search_query_searchers`,
    );
    expect(stored.rows).toHaveLength(4);
    for (const { searcher } of stored.rows) {
      expect(searcher).not.toMatch(/alice|bob|198\.51|kkkk/);
    }
  });

  it('does not record a query built with operators', async () => {
    expect(hasSearchOperators('cat or dog')).toBe(true);
    expect(hasSearchOperators('cat -dog')).toBe(true);
    expect(hasSearchOperators('orange cat')).toBe(false);
    expect(hasSearchOperators('t-rex')).toBe(false);
    for (const userId of ['a', 'b', 'c']) {
      await record('cat or dog', { userId });
      await record('cat -dog', { userId });
      await record('-dog', { userId });
    }
    const rows = await testApp.database.db.execute(sql`SELECT * FROM search_queries`);
    expect(rows.rows).toEqual([]);
  });

  it('prunes old days: who searched after a day, the counts after the trending window', async () => {
    const db = testApp.database.db;
    await record('fresh', { userId: 'alice' });
    await db.execute(sql`
      INSERT INTO search_query_searchers (query, day, searcher) VALUES
        ('old', (now() AT TIME ZONE 'utc')::date - 1, 'someone')`);
    await db.execute(sql`
      INSERT INTO search_queries (query, day, count) VALUES
        ('six days old', (now() AT TIME ZONE 'utc')::date - 6, 5),
        ('a week old', (now() AT TIME ZONE 'utc')::date - 7, 5)`);
    const summary = await testApp.app.deps.services.maintenance.runNow();
    expect(summary).toMatchObject({ isDone: true, searchersPruned: 1, searchDaysPruned: 1 });
    const queries = await db.execute<{ query: string }>(
      sql`SELECT query FROM search_queries ORDER BY query`,
    );
    expect(queries.rows.map((row) => row.query)).toEqual(['fresh', 'six days old']);
    const searchers = await db.execute<{ query: string }>(
      sql`SELECT query FROM search_query_searchers`,
    );
    expect(searchers.rows.map((row) => row.query)).toEqual(['fresh']);
  });
});
