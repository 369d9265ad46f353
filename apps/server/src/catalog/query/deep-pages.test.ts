import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/client.ts';
import { createTestApp } from '../../test-support/app.ts';
import type { TestApp } from '../../test-support/app.ts';
import { insertCatalogItems } from '../../test-support/catalog-fixtures.ts';
import { signInAs } from '../../test-support/sign-in.ts';

const deepOffset = 4990;

/**
 * The most statements carrying `deepOffset` that were in flight at once while `run` ran:
 * rankings of a page past what is kept (the page's offset is one of their parameters).
 */
async function peakDeepStatements(
  database: DatabaseHandle,
  run: () => Promise<unknown>,
): Promise<number> {
  const pool = database.pool;
  const query = pool.query.bind(pool);
  let inFlight = 0;
  let peak = 0;
  pool.query = ((...args: Parameters<typeof query>) => {
    const params = (args[1] ?? (args[0] as { values?: unknown[] }).values) as unknown[] | undefined;
    if (!Array.isArray(params) || !params.includes(deepOffset)) return query(...args);
    inFlight += 1;
    peak = Math.max(peak, inFlight);
    return (query(...args) as unknown as Promise<unknown>).finally(() => {
      inFlight -= 1;
    });
  }) as typeof pool.query;
  try {
    await run();
  } finally {
    pool.query = query;
  }
  return peak;
}

/**
 * Issue 16: deep pages (search past the kept 250 ids, related past its kept 60) ranked every
 * match again for each request, as many at once as asked. They go through a per-app gate now
 * (deep-pages.ts): a flood of them is answered, a few at a time, and leaves the pool to
 * /readyz and to everyone else's first pages.
 */
describe('deep pages', () => {
  let testApp: TestApp;
  let cookie: string;
  let ids: string[];

  beforeAll(async () => {
    testApp = await createTestApp({}, { rateLimitWindowMs: 60 * 60_000 });
    cookie = (await signInAs(testApp)).cookie;
    ids = await insertCatalogItems(
      testApp.database,
      Array.from({ length: 300 }, (_, index) => ({
        title: `Cat number ${index % 20}`,
        tags: ['cat', `group ${index % 20}`],
        trendScore: index,
      })),
    );
  });
  afterAll(async () => {
    await testApp?.close();
  });

  const get = (url: string) => testApp.app.inject({ method: 'GET', url, headers: { cookie } });

  it('answers a flood of 20 clients at offset 4990 a few at a time, while /readyz and a first page answer', async () => {
    const flood = Array.from({ length: 20 }, (_, index) =>
      index % 2 === 0
        ? `/v1/gifs/search?q=${encodeURIComponent(`cat number ${index}`)}&offset=${deepOffset}`
        : `/v1/gifs/related?gif_id=${ids[index]}&offset=${deepOffset}`,
    );
    let others: Array<Awaited<ReturnType<typeof get>>> = [];
    let answers: Array<Awaited<ReturnType<typeof get>>> = [];
    const peak = await peakDeepStatements(testApp.database, async () => {
      const deep = Promise.all(flood.map(get));
      others = await Promise.all([get('/readyz'), get('/v1/gifs/search?q=cat')]);
      answers = await deep;
    });

    for (const [index, response] of answers.entries()) {
      expect(response.statusCode, flood[index]).toBe(200);
      const body = response.json();
      expect(body.data).toEqual([]);
      expect(body.pagination).toMatchObject({ offset: deepOffset, count: 0 });
      // The exact total, as on the first page.
      const first = (await get(flood[index]!.replace(`offset=${deepOffset}`, 'offset=0'))).json();
      expect(body.pagination.total_count).toBe(first.pagination.total_count);
      expect(body.pagination.total_count).toBeGreaterThan(0);
    }
    const [ready, search] = others;
    expect(ready!.statusCode).toBe(200);
    expect(ready!.json()).toMatchObject({ status: 'ok', database: 'ok' });
    expect(search!.statusCode).toBe(200);
    expect(search!.json().data).toHaveLength(25);
    expect(search!.json().pagination.total_count).toBe(300);
    // Never more than the gate's two deep rankings at once (the pool holds 10).
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThanOrEqual(2);
  });

  it('answers a deep page from the kept ranking when it already holds every match', async () => {
    const url = '/v1/gifs/search?q=cat%20number%203';
    const first = (await get(url)).json();
    expect(first.pagination.total_count).toBeLessThan(250);
    const peak = await peakDeepStatements(testApp.database, async () => {
      const deep = (await get(`${url}&offset=${deepOffset}`)).json();
      expect(deep.pagination).toMatchObject({
        offset: deepOffset,
        count: 0,
        total_count: first.pagination.total_count,
      });
    });
    expect(peak).toBe(0);
  });
});
