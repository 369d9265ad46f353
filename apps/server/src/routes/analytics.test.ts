import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../test-support/app.ts';
import type { TestApp } from '../test-support/app.ts';

describe('POST /api/analytics/pageview', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(async () => {
    await testApp.close();
  });

  const postPageView = (payload: unknown, headers: Record<string, string> = {}) =>
    testApp.app.inject({
      method: 'POST',
      url: '/api/analytics/pageview',
      headers: { 'content-type': 'application/json', ...headers },
      payload: JSON.stringify(payload),
    });

  async function readCounts() {
    const { rows } = await testApp.database.pool.query<{
      day: string;
      path: string;
      count: number;
    }>("select to_char(day, 'YYYY-MM-DD') as day, path, count from page_views order by path");
    return rows;
  }

  /** The database's own UTC day, as recordPageView files views under. */
  async function readToday(): Promise<string> {
    const { rows } = await testApp.database.pool.query<{ day: string }>(
      "select to_char((now() at time zone 'utc')::date, 'YYYY-MM-DD') as day",
    );
    return rows[0]!.day;
  }

  /** Posts one view and proves it added exactly one to that day's count, whatever day it is. */
  async function expectOneMoreView() {
    const before = await readCounts();
    const dayBefore = await readToday();
    const response = await postPageView({ path: '/landing' });
    const dayAfter = await readToday();
    expect(response.statusCode).toBe(204);
    expect(response.headers['set-cookie']).toBeUndefined();
    const after = await readCounts();
    const countOn = (rows: typeof before, day: string) =>
      rows.find((row) => row.day === day && row.path === '/landing')?.count ?? 0;
    const changed = after.filter((row) => countOn(before, row.day) !== row.count);
    // One row grew by one, on the day the server saw (the same as ours, or the next one if
    // midnight UTC passed during the request); nothing else moved.
    expect(changed).toHaveLength(1);
    expect(changed[0]!.count).toBe(countOn(before, changed[0]!.day) + 1);
    expect([dayBefore, dayAfter]).toContain(changed[0]!.day);
    expect(after.length - before.length).toBe(countOn(before, changed[0]!.day) === 0 ? 1 : 0);
  }

  it('keeps one daily count per path and stores nothing else', async () => {
    await expectOneMoreView();
    await expectOneMoreView();
    const counts = await readCounts();
    expect(counts.every((row) => row.path === '/landing')).toBe(true);
    expect(counts.reduce((sum, row) => sum + row.count, 0)).toBe(2);
    const { rows: columns } = await testApp.database.pool.query<{ column_name: string }>(
      "select column_name from information_schema.columns where table_name = 'page_views' order by 1",
    );
    expect(columns.map((column) => column.column_name)).toEqual(['count', 'day', 'path']);
  });

  it.each([
    ['an unknown path', { path: '/favorite' }],
    ['a full URL', { path: 'https://example.com/landing' }],
    ['a query string', { path: '/landing?utm=1' }],
    ['extra fields', { path: '/landing', email: 'a@example.com' }],
    ['no path', {}],
    ['a non-string path', { path: 42 }],
  ])('refuses %s with 400 and counts nothing', async (_label, payload) => {
    const before = await readCounts();
    const response = await postPageView(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, error: { code: 'bad_request' } });
    expect(await readCounts()).toEqual(before);
  });

  it('refuses a body that is not JSON with 400', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/analytics/pageview',
      headers: { 'content-type': 'application/json' },
      payload: '{"path":',
    });
    expect(response.statusCode).toBe(400);
  });

  it('refuses a page view posted from another site', async () => {
    const response = await postPageView(
      { path: '/landing' },
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    );
    expect(response.statusCode).toBe(403);
  });

  it('rate-limits one address', async () => {
    // A long window: the budget cannot renew in the middle of this burst on a slow machine.
    const limited = await createTestApp({}, { rateLimitWindowMs: 60 * 60_000 });
    try {
      const statuses: number[] = [];
      for (let index = 0; index < 31; index += 1) {
        const response = await limited.app.inject({
          method: 'POST',
          url: '/api/analytics/pageview',
          headers: { 'content-type': 'application/json' },
          payload: '{"path":"/landing"}',
          remoteAddress: '203.0.113.9',
        });
        statuses.push(response.statusCode);
      }
      expect(statuses.slice(0, 30).every((status) => status === 204)).toBe(true);
      expect(statuses[30]).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
