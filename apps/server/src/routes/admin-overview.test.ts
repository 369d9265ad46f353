import type { AdminOverviewResponse } from '@sticky/contracts';
import { adminOverviewResponseSchema } from '@sticky/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp } from '../test-support/app.ts';
import type { TestApp } from '../test-support/app.ts';
import { insertCatalogItems } from '../test-support/catalog-fixtures.ts';
import { signInAs } from '../test-support/sign-in.ts';
import { sameSiteHeaders } from '../test-support/uploads.ts';

const apiKey = 'overview-test-key-0123456789abcdefghijkl';

/** The UTC date `daysAgo` days before today, as YYYY-MM-DD. */
const dayBefore = (daysAgo: number) =>
  new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

describe('GET /api/admin/overview', () => {
  let testApp: TestApp;
  let admin: string;
  let person: string;

  beforeAll(async () => {
    testApp = await createTestApp(
      { STICKY_API_KEYS: apiKey, ADMIN_EMAILS: 'admin@example.com' },
      { hasJobs: true },
    );
    admin = (await signInAs(testApp, { email: 'admin@example.com' })).cookie;
    person = (await signInAs(testApp, { email: 'person@example.com' })).cookie;
  });
  afterAll(async () => {
    await testApp?.close();
  });

  const readOverview = async (cookie: string) =>
    testApp.app.inject({ url: '/api/admin/overview', headers: { cookie } });
  const overview = async (): Promise<AdminOverviewResponse> => {
    const response = await readOverview(admin);
    expect(response.statusCode).toBe(200);
    return adminOverviewResponseSchema.parse(response.json());
  };
  /** A search by one person (an app's key from one address is one person). */
  const search = async (q: string, address: string) => {
    const response = await testApp.app.inject({
      url: `/v1/gifs/search?api_key=${apiKey}&q=${encodeURIComponent(q)}`,
      remoteAddress: address,
    });
    expect(response.statusCode).toBe(200);
  };

  it('is for admins only', async () => {
    expect((await readOverview(person)).statusCode).toBe(403);
    expect((await testApp.app.inject({ url: '/api/admin/overview' })).statusCode).toBe(401);
  });

  it('counts the uploads and searches recorded, with 0 on other days, misses, storage, queues and health', async () => {
    // Uploads as the uploads table records them: 2 today, 3 ten days ago, 1 too old to show.
    const { pool } = testApp.database;
    const insertUpload = (daysAgo: number) =>
      pool.query(
        `INSERT INTO uploads (id, state, file_name, bytes, sha256, metadata, created_at)
         VALUES (gen_random_uuid()::text, 'failed', 'a.gif', 1, 'x', '{}', now() - make_interval(days => $1))`,
        [daysAgo],
      );
    for (const daysAgo of [0, 0, 10, 10, 10, 31]) await insertUpload(daysAgo);

    // Searches: "quokka" found by three people, "narwhal" missed by two, "zebu" missed by one.
    await insertCatalogItems(testApp.database, [{ title: 'Quokka smiling', tags: ['quokka'] }]);
    for (const address of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) {
      await search('quokka', address);
    }
    await search('quokka', '198.51.100.1'); // the same person again: counted once
    await search('Narwhal', '198.51.100.1');
    await search('narwhal', '198.51.100.2');
    await search('zebu', '198.51.100.1');
    // Older days, as earlier searches left them.
    await pool.query(
      `INSERT INTO search_queries (query, day, count) VALUES ('quokka', $1, 4), ('ancient', $2, 9)`,
      [dayBefore(3), dayBefore(30)],
    );

    // Jobs waiting in a queue no one works.
    const jobs = testApp.app.deps.jobs!;
    await jobs.createQueue('overview-test');
    for (let count = 0; count < 3; count += 1) await jobs.send('overview-test', { count });

    // Search counts are written behind the answers.
    const answer = await vi.waitFor(
      async () => {
        const read = await overview();
        expect(read.searchesPerDay.at(-1)!.count).toBe(6);
        return read;
      },
      { timeout: 5_000 },
    );
    const countOn = (days: AdminOverviewResponse['uploadsPerDay'], daysAgo: number) =>
      days.find((day) => day.day === dayBefore(daysAgo))?.count;
    expect(countOn(answer.uploadsPerDay, 0)).toBe(2);
    expect(countOn(answer.uploadsPerDay, 10)).toBe(3);
    expect(answer.uploadsPerDay.reduce((sum, day) => sum + day.count, 0)).toBe(5);
    expect(countOn(answer.searchesPerDay, 3)).toBe(4);
    expect(answer.uploadsPerDay.map((day) => day.day)).toEqual(
      answer.searchesPerDay.map((day) => day.day),
    );
    expect(answer.searchesPerDay.filter((day) => day.count > 0)).toHaveLength(2);

    expect(answer.topSearches).toEqual([{ query: 'quokka', count: 7 }]);
    // One person's miss is not listed; two people's is.
    expect(answer.missedSearches).toEqual([{ query: 'narwhal', count: 2 }]);

    expect(answer.jobQueues).toContainEqual({
      queue: 'overview-test',
      waiting: 3,
      active: 0,
      oldestAgeSeconds: expect.any(Number),
    });

    const bytes = await testApp.database.db.execute<{ originals: string; total: string }>(sql`
      SELECT sum(r.bytes) FILTER (WHERE r.name = 'original' AND r.format = i.original_format)::text
               AS originals,
             sum(r.bytes)::text AS total
      FROM renditions r JOIN items i ON i.id = r.item_id`);
    expect(answer.storage.originalBytes).toBe(Number(bytes.rows[0]!.originals));
    expect(answer.storage.originalBytes + answer.storage.renditionBytes).toBe(
      Number(bytes.rows[0]!.total),
    );

    expect(answer.health).toEqual({
      database: { state: 'ok', latencyMs: expect.any(Number) },
      storage: { state: 'ok', kind: 'local' },
    });
  });

  // After the test above: its first read keeps the days before today (closed days are read once).
  it("takes an admin's API token only with the admin scope", async () => {
    const tokenWith = async (scopes: string[]) => {
      const made = await testApp.app.inject({
        method: 'POST',
        url: '/api/tokens',
        headers: { ...sameSiteHeaders(testApp, admin), 'content-type': 'application/json' },
        payload: JSON.stringify({ name: 'script', scopes }),
      });
      expect(made.statusCode, made.body).toBe(201);
      return { authorization: `Bearer ${(made.json() as { secret: string }).secret}` };
    };
    const read = await testApp.app.inject({
      url: '/api/admin/overview',
      headers: await tokenWith(['read']),
    });
    expect(read.statusCode).toBe(403);
    expect(read.json()).toMatchObject({ error: { code: 'insufficient_scope' } });
    const adminScope = await testApp.app.inject({
      url: '/api/admin/overview',
      headers: await tokenWith(['admin']),
    });
    expect(adminScope.statusCode).toBe(200);
  });

  it('lists every day of a new instance with 0, and sums storage of originals and renditions', async () => {
    const fresh = await createTestApp({ ADMIN_EMAILS: 'admin@example.com' });
    try {
      const cookie = (await signInAs(fresh, { email: 'admin@example.com' })).cookie;
      await insertCatalogItems(fresh.database, [{ title: 'One', width: 100, height: 50 }]);
      const response = await fresh.app.inject({ url: '/api/admin/overview', headers: { cookie } });
      const answer = adminOverviewResponseSchema.parse(response.json());
      const { storage, jobQueues } = answer;
      for (const days of [answer.uploadsPerDay, answer.searchesPerDay]) {
        expect(days).toHaveLength(30);
        expect(days[0]!.day).toBe(dayBefore(29));
        expect(days[29]!.day).toBe(dayBefore(0));
        expect(days.every((day) => day.count === 0)).toBe(true);
      }
      expect(answer.topSearches).toEqual([]);
      expect(answer.missedSearches).toEqual([]);
      const total = await fresh.database.pool.query<{ bytes: string }>(
        'SELECT sum(bytes)::text AS bytes FROM renditions',
      );
      // The fixture's original GIF: two bytes a pixel.
      expect(storage.originalBytes).toBe(100 * 50 * 2);
      expect(storage.originalBytes + storage.renditionBytes).toBe(Number(total.rows[0]!.bytes));
      // No queue was ever started on this database.
      expect(jobQueues).toEqual([]);
    } finally {
      await fresh.close();
    }
  });
});
