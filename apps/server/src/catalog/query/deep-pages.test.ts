import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createTestApp } from '../../test-support/app.ts';
import type { TestApp } from '../../test-support/app.ts';
import { insertCatalogItems } from '../../test-support/catalog-fixtures.ts';
import { signInAs } from '../../test-support/sign-in.ts';
import type { DeepPageGate } from './deep-pages.ts';

const deepOffset = 4990;

/** Resolves once `check()` holds, looking again every few milliseconds (no deadline of its own). */
async function waitUntil(check: () => boolean, shouldStop: () => boolean = () => false) {
  while (!check() && !shouldStop()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/**
 * Makes every deep ranking the gate lets run as slow as on a large catalog: it takes a
 * connection of the pool and holds it until `release()`, then ranks. Counts the rankings
 * running at once. Deep rankings are known by the gate they run through (deep-pages.ts).
 */
function holdDeepRankings(gate: DeepPageGate, pool: pg.Pool) {
  const run = gate.run;
  const state = { holding: 0, inFlight: 0, peak: 0, ranked: 0, isReleased: false };
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = () => {
      state.isReleased = true;
      resolve();
    };
  });
  gate.run = (work) =>
    run(async () => {
      state.inFlight += 1;
      state.ranked += 1;
      state.peak = Math.max(state.peak, state.inFlight);
      try {
        const client = await pool.connect();
        state.holding += 1;
        try {
          await released;
        } finally {
          state.holding -= 1;
          client.release();
        }
        return await work();
      } finally {
        state.inFlight -= 1;
      }
    });
  return { state, release, restore: () => (gate.run = run) };
}

/** A request answered while a flood of deep pages was held, and what the gate held then. */
interface OtherAnswer {
  url: string;
  status: number;
  pendingDeepPages: number;
  isFloodHeld: boolean;
  body: Record<string, unknown>;
}

/**
 * Issue 16: deep pages (search past the kept ranking, related past its kept 60 ids) were ranked
 * for each request, as many at once as asked. They go through a per-app gate now
 * (deep-pages.ts): a flood of them is answered, a few at a time, and leaves the pool to
 * /readyz and to everyone else's first pages.
 */
describe('deep pages', () => {
  const catCount = 2_000;
  let testApp: TestApp;
  let cookie: string;
  let ids: string[];

  beforeAll(async () => {
    // Small blocks, so a search's kept ranking does not hold every cat (docs/catalog.md, "Search").
    testApp = await createTestApp(
      { SEARCH_RANK_CANDIDATES: '10' },
      { rateLimitWindowMs: 60 * 60_000 },
    );
    cookie = (await signInAs(testApp)).cookie;
    ids = await insertCatalogItems(
      testApp.database,
      Array.from({ length: catCount }, (_, index) => ({
        title: `Cat number ${index % 20}`,
        tags: ['cat', `group ${index % 20}`],
        trendScore: index / 2,
      })),
    );
    await testApp.database.pool.query('ANALYZE items');
  });
  afterAll(async () => {
    await testApp?.close();
  });

  const get = (url: string) => testApp.app.inject({ method: 'GET', url, headers: { cookie } });

  it('answers a flood of 20 clients at offset 4990 a few at a time, while /readyz and a first page answer', async () => {
    // Twenty different deep pages (the same page asked twice at once is ranked once).
    const flood = Array.from({ length: 20 }, (_, index) =>
      index % 2 === 0
        ? `/v1/gifs/search?q=cat&offset=${deepOffset - index}`
        : `/v1/gifs/related?gif_id=${ids[index]}&offset=${deepOffset}`,
    );
    const gate = testApp.app.deps.services.deepPages;
    const pool = testApp.database.pool;
    const hold = holdDeepRankings(gate, pool);
    // However the test ends (a failure may be a request that never gets its connection while the
    // flood holds them all), the flood is let go, so the app can close.
    onTestFinished(() => {
      hold.release();
      hold.restore();
    });
    let answers: Array<Awaited<ReturnType<typeof get>>> = [];
    let others: OtherAnswer[] = [];
    let isStarved = false;
    try {
      let finished = 0;
      const deep = Promise.all(
        flood.map((url) =>
          get(url).finally(() => {
            finished += 1;
          }),
        ),
      );
      // The flood has arrived: each client is answered, or running or waiting at the gate, and
      // each one running has asked for its ranking (which holds a connection once it has one).
      await waitUntil(
        () =>
          gate.activeCount > 0 &&
          hold.state.inFlight === gate.activeCount &&
          finished + gate.activeCount + gate.pendingCount === flood.length,
      );

      // While it still waits, /readyz and someone's first page are answered: they wait for
      // no deep page, and the pool has connections left for them. One of them waiting for a
      // connection instead would wait for as long as the flood holds them: that is a failure.
      const waitingBefore = pool.waitingCount;
      let isAnswered = false;
      const starved = waitUntil(
        () => pool.waitingCount > waitingBefore,
        () => isAnswered,
      ).then(() => {
        isStarved = !isAnswered;
      });
      others = await Promise.race([
        Promise.all(
          ['/readyz', '/v1/gifs/search?q=cat'].map(async (url): Promise<OtherAnswer> => {
            const response = await get(url);
            return {
              url,
              status: response.statusCode,
              pendingDeepPages: gate.pendingCount,
              isFloodHeld: !hold.state.isReleased,
              body: response.json(),
            };
          }),
        ),
        starved.then((): OtherAnswer[] => []),
      ]);
      isAnswered = true;
      hold.release();
      answers = await deep;
    } finally {
      hold.release();
      hold.restore();
    }

    expect(isStarved, 'a request waited for a connection held by the flood').toBe(false);
    expect(others.map(({ url, status }) => [url, status])).toEqual([
      ['/readyz', 200],
      ['/v1/gifs/search?q=cat', 200],
    ]);
    for (const other of others) {
      expect(other.isFloodHeld, other.url).toBe(true);
      expect(other.pendingDeepPages, other.url).toBeGreaterThan(0);
    }
    const [ready, search] = others;
    expect(ready!.body).toMatchObject({ status: 'ok', database: 'ok' });
    expect(search!.body).toMatchObject({ pagination: { offset: 0, count: 25 } });

    for (const [index, response] of answers.entries()) {
      expect(response.statusCode, flood[index]).toBe(200);
      const body = response.json();
      expect(body.data).toEqual([]);
      expect(body.pagination).toMatchObject({ count: 0 });
      // Past the last match: every match was read, so the count is exact.
      expect(body.pagination.total_count).toBe(index % 2 === 0 ? catCount : catCount - 1);
    }
    // Never more than the gate's two deep rankings at once (the pool holds 10).
    expect(hold.state.peak).toBeGreaterThan(0);
    expect(hold.state.peak).toBeLessThanOrEqual(2);
  });

  it('answers a deep page from the kept ranking when it already holds every match', async () => {
    const url = '/v1/gifs/search?q=cat%20number%203';
    const first = (await get(url)).json();
    expect(first.pagination.total_count).toBeLessThan(250);
    const gate = testApp.app.deps.services.deepPages;
    const hold = holdDeepRankings(gate, testApp.database.pool);
    hold.release();
    try {
      const deep = (await get(`${url}&offset=${deepOffset}`)).json();
      expect(deep.pagination).toMatchObject({
        offset: deepOffset,
        count: 0,
        total_count: first.pagination.total_count,
      });
    } finally {
      hold.restore();
    }
    expect(hold.state.ranked).toBe(0);
  });
});
