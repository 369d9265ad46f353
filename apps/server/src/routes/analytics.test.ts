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

  it('keeps one daily count per path and stores nothing else', async () => {
    expect((await postPageView({ path: '/landing' })).statusCode).toBe(204);
    const response = await postPageView({ path: '/landing' });
    expect(response.statusCode).toBe(204);
    expect(response.headers['set-cookie']).toBeUndefined();

    const today = new Date().toISOString().slice(0, 10);
    expect(await readCounts()).toEqual([{ day: today, path: '/landing', count: 2 }]);
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
    const limited = await createTestApp();
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
