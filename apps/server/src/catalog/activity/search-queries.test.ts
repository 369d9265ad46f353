import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test-support/app.ts';
import type { TestApp } from '../../test-support/app.ts';
import { insertCatalogItems } from '../../test-support/catalog-fixtures.ts';
import { recordStatements } from '../../test-support/database.ts';
import { signInAs } from '../../test-support/sign-in.ts';
import { listTrendingSearches } from '../query/trending.ts';
import { createSearchQueryRecorder, hasSearchOperators } from './search-queries.ts';

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

  /**
   * One search counted as a server that never saw this person before counts it (a recorder of
   * its own, whose memory of counts already written is empty): what the database itself keeps
   * once per person, whichever server asks.
   */
  const record = async (
    q: string,
    requester: { userId?: string; apiKey?: string; address?: string },
  ) => {
    const recorder = createSearchQueryRecorder(testApp.app.deps);
    const errors: unknown[] = [];
    recorder.record({ q, hasResults: true }, { address: '203.0.113.7', ...requester }, (error) =>
      errors.push(error),
    );
    await recorder.flush();
    expect(errors).toEqual([]);
  };
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
    // Four people are not yet a trend; the fifth makes it one.
    expect(await listTrendingSearches(testApp.app.deps)).not.toContain('dancing cat');
    await record('dancing cat', { userId: 'carol' });
    expect((await listTrendingSearches(testApp.app.deps))[0]).toBe('dancing cat');

    // Who searched is kept as a keyed digest, never the id, key or address.
    const stored = await testApp.database.db.execute<{ searcher: string }>(
      sql`SELECT searcher FROM search_query_searchers`,
    );
    expect(stored.rows).toHaveLength(5);
    for (const { searcher } of stored.rows) {
      expect(searcher).not.toMatch(/alice|bob|carol|198\.51|kkkk/);
    }
  });

  it('writes a count in one statement that commits without waiting for the disk', async () => {
    const sent = await recordStatements(testApp.database, () =>
      record('dancing cat', { userId: 'alice' }),
    );
    // One round trip, no transaction held open over several (issue 15).
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toMatch(/set_config\('synchronous_commit', 'off', true\)/);
    expect(await countOf('dancing cat')).toBe(1);
    // The setting was the statement's own: the pool's sessions keep the server's default.
    const setting = await testApp.database.db.execute<{ source: string }>(
      sql`SELECT source FROM pg_settings WHERE name = 'synchronous_commit'`,
    );
    expect(setting.rows[0]!.source).not.toBe('session');
  });

  /** Holds today's row for `query` in another session: the next count of it waits for the lock. */
  const holdCount = async (query: string) => {
    const blocker = await testApp.database.pool.connect();
    await blocker.query('BEGIN');
    await blocker.query(
      `UPDATE search_queries SET count = count WHERE query = $1 AND day = (now() AT TIME ZONE 'utc')::date`,
      [query],
    );
    return {
      release: async () => {
        await blocker.query('COMMIT');
        blocker.release();
      },
    };
  };
  const countsWaiting = async () => {
    const waiting = await testApp.database.db.execute<{ count: number }>(sql`
      SELECT count(*)::int AS count FROM pg_stat_activity
      WHERE datname = current_database() AND wait_event_type = 'Lock'
        AND query LIKE '%search_query_searchers%'`);
    return waiting.rows[0]!.count;
  };

  it('answers a search without waiting for its count, and closing the app writes it', async () => {
    await insertCatalogItems(testApp.database, [{ title: 'Dancing cat', tags: ['cat'] }]);
    const search = async () => {
      const { cookie } = await signInAs(testApp);
      return testApp.app.inject({
        method: 'GET',
        url: '/v1/gifs/search?q=cat',
        headers: { cookie },
      });
    };
    expect((await search()).statusCode).toBe(200);
    await expect.poll(() => countOf('cat')).toBe(1);

    const hold = await holdCount('cat');
    const response = await search();
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toHaveLength(1);
    await expect.poll(countsWaiting).toBe(1);
    const closed = testApp.app.close();
    await hold.release();
    await closed;
    expect(await countOf('cat')).toBe(2);
  });

  it('flushes: resolves only once every count started is written', async () => {
    const recorder = createSearchQueryRecorder(testApp.app.deps);
    const errors: unknown[] = [];
    recorder.record(
      { q: 'cat', hasResults: true },
      { userId: 'alice', address: '203.0.113.7' },
      (error) => errors.push(error),
    );
    await recorder.flush();
    expect(await countOf('cat')).toBe(1);

    const hold = await holdCount('cat');
    recorder.record(
      { q: 'cat', hasResults: true },
      { userId: 'bob', address: '203.0.113.7' },
      (error) => errors.push(error),
    );
    let isFlushed = false;
    const flushed = recorder.flush().then(() => {
      isFlushed = true;
    });
    await expect.poll(countsWaiting).toBe(1);
    expect(isFlushed).toBe(false);
    await hold.release();
    await flushed;
    expect(await countOf('cat')).toBe(2);
    expect(errors).toEqual([]);
  });

  it('sends nothing for a count it already wrote: the same person, query and day', async () => {
    let now = new Date('2026-03-01T23:59:00Z');
    const recorder = createSearchQueryRecorder(testApp.app.deps, { now: () => now });
    const errors: unknown[] = [];
    const search = async (q: string, userId: string) => {
      recorder.record({ q, hasResults: true }, { userId, address: '203.0.113.7' }, (error) =>
        errors.push(error),
      );
      await recorder.flush();
    };
    const statementsOf = async (run: () => Promise<unknown>) =>
      (await recordStatements(testApp.database, run)).length;
    expect(await statementsOf(() => search('Dancing cat', 'alice'))).toBe(1);
    expect(await statementsOf(() => search('dancing  CAT', 'alice'))).toBe(0);
    expect(await statementsOf(() => search('dancing cat', 'bob'))).toBe(1);
    expect(await statementsOf(() => search('dancing', 'alice'))).toBe(1);
    // The next UTC day, each person counts again, on that day.
    now = new Date('2026-03-02T00:00:01Z');
    expect(await statementsOf(() => search('dancing cat', 'alice'))).toBe(1);
    const rows = await testApp.database.db.execute<{ day: string; count: number }>(
      sql`SELECT day::text, count FROM search_queries WHERE query = 'dancing cat' ORDER BY day`,
    );
    expect(rows.rows).toEqual([
      { day: '2026-03-01', count: 2 },
      { day: '2026-03-02', count: 1 },
    ]);
    expect(errors).toEqual([]);
  });

  it('writes a count once its answer is sent, and a close still waits for it', async () => {
    const recorder = createSearchQueryRecorder(testApp.app.deps);
    const errors: unknown[] = [];
    let send = () => {};
    const sent = new Promise<void>((resolve) => {
      send = resolve;
    });
    // While the answer is not sent, the count sends nothing, even as a later count with no
    // answer to wait for (another recorder's) goes to the database and comes back.
    const statements = await recordStatements(testApp.database, async () => {
      recorder.record(
        { q: 'cat', hasResults: true },
        { userId: 'alice', address: '203.0.113.7' },
        (error) => errors.push(error),
        () => sent,
      );
      const other = createSearchQueryRecorder(testApp.app.deps);
      other.record(
        { q: 'dog', hasResults: true },
        { userId: 'alice', address: '203.0.113.7' },
        (error) => errors.push(error),
      );
      await other.flush();
    });
    const queriesSent = statements.flatMap(({ values }) =>
      values.filter((value) => value === 'cat' || value === 'dog'),
    );
    expect(queriesSent).toEqual(['dog']);
    expect(await countOf('dog')).toBe(1);
    expect(await countOf('cat')).toBe(0);
    const flushed = recorder.flush();
    send();
    await flushed;
    expect(await countOf('cat')).toBe(1);
    expect(errors).toEqual([]);

    // The same person's repeat has nothing to write: it does not wait for its answer at all.
    let waits = 0;
    recorder.record(
      { q: 'cat', hasResults: true },
      { userId: 'alice', address: '203.0.113.7' },
      (error) => errors.push(error),
      () => {
        waits += 1;
        return Promise.resolve();
      },
    );
    await recorder.flush();
    expect(waits).toBe(0);
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

  it('prunes old days: who searched after a day, the counts and misses after the overview window', async () => {
    const db = testApp.database.db;
    await record('fresh', { userId: 'alice' });
    await db.execute(sql`
      INSERT INTO search_query_searchers (query, day, searcher) VALUES
        ('old', (now() AT TIME ZONE 'utc')::date - 1, 'someone')`);
    await db.execute(sql`
      INSERT INTO search_queries (query, day, count) VALUES
        ('29 days old', (now() AT TIME ZONE 'utc')::date - 29, 5),
        ('30 days old', (now() AT TIME ZONE 'utc')::date - 30, 5)`);
    await db.execute(sql`
      INSERT INTO search_misses (query, day, count) VALUES
        ('missed 29 days ago', (now() AT TIME ZONE 'utc')::date - 29, 5),
        ('missed 30 days ago', (now() AT TIME ZONE 'utc')::date - 30, 5)`);
    const summary = await testApp.app.deps.services.maintenance.runNow();
    expect(summary).toMatchObject({ isDone: true, searchersPruned: 1, searchDaysPruned: 2 });
    const queries = await db.execute<{ query: string }>(
      sql`SELECT query FROM search_queries ORDER BY query`,
    );
    expect(queries.rows.map((row) => row.query)).toEqual(['29 days old', 'fresh']);
    const misses = await db.execute<{ query: string }>(sql`SELECT query FROM search_misses`);
    expect(misses.rows.map((row) => row.query)).toEqual(['missed 29 days ago']);
    const searchers = await db.execute<{ query: string }>(
      sql`SELECT query FROM search_query_searchers`,
    );
    expect(searchers.rows.map((row) => row.query)).toEqual(['fresh']);
    // Trending still reads its 7 days only.
    expect(await listTrendingSearches(testApp.app.deps)).not.toContain('29 days old');
  });

  it('counts a search that found nothing apart, once per person, phrase and day, naming no one', async () => {
    for (const userId of ['alice', 'alice', 'bob']) {
      const recorder = createSearchQueryRecorder(testApp.app.deps);
      recorder.record(
        { q: 'Purple  Narwhal', hasResults: false },
        { userId, address: '203.0.113.7' },
        (error) => {
          throw error;
        },
      );
      await recorder.flush();
    }
    const misses = await testApp.database.db.execute<{ query: string; count: number }>(
      sql`SELECT query, count FROM search_misses`,
    );
    expect(misses.rows).toEqual([{ query: 'purple narwhal', count: 2 }]);
    expect(await countOf('purple narwhal')).toBe(0);
  });
});
