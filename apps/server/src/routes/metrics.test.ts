import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../test-support/app.ts';
import type { TestApp } from '../test-support/app.ts';
import { insertCatalogItems } from '../test-support/catalog-fixtures.ts';
import { signInAs } from '../test-support/sign-in.ts';
import { postUploads, sameSiteHeaders } from '../test-support/uploads.ts';

const token = 'metrics-token-for-tests-0123456789abcdef';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * Prometheus' text format, read strictly: every line a `# HELP`/`# TYPE` comment or a sample
 * `name{label="value",…} number`; anything else fails the test.
 */
function parsePrometheusText(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || /^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .+$/.test(line)) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?[0-9.e+-]+|NaN|[+-]Inf)$/.exec(line);
    if (!match) throw new Error(`not Prometheus' text format: ${JSON.stringify(line)}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[key!] = value!;
    }
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

function sumOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter(
      (sample) =>
        sample.name === name &&
        Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
    )
    .reduce((sum, sample) => sum + sample.value, 0);
}

describe('GET /metrics', () => {
  let testApp: TestApp;

  const scrape = async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return parsePrometheusText(response.body);
  };

  beforeAll(async () => {
    testApp = await createTestApp({ METRICS_TOKEN: token }, { hasJobs: true });
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it('answers loopback in the text format, with every family the operations doc names', async () => {
    const samples = await scrape();
    const names = new Set(samples.map((sample) => sample.name));
    for (const name of [
      'sticky_db_pool_connections',
      'sticky_storage_bytes',
      'sticky_decoder_cpu_seconds_total',
      'sticky_event_loop_delay_seconds',
      'sticky_process_resident_memory_bytes',
    ]) {
      expect(names, name).toContain(name);
    }
    expect(sumOf(samples, 'sticky_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
  });

  it('counts a request under its route pattern, never its URL', async () => {
    const [id] = await insertCatalogItems(testApp.database, [{ title: 'Counted cat' }]);
    const { cookie } = await signInAs(testApp);
    const before = await scrape();
    const labels = { method: 'GET', route: '/v1/gifs/:id', status: '200' };
    const counted = sumOf(before, 'sticky_http_requests_total', labels);
    const response = await testApp.app.inject({ url: `/v1/gifs/${id}`, headers: { cookie } });
    expect(response.statusCode).toBe(200);
    const after = await scrape();
    expect(sumOf(after, 'sticky_http_requests_total', labels)).toBe(counted + 1);
    expect(sumOf(after, 'sticky_http_request_duration_seconds_count', labels)).toBe(counted + 1);
    expect(after.some((sample) => Object.values(sample.labels).some((v) => v.includes(id!)))).toBe(
      false,
    );
  });

  it('counts kept-answer hits and misses, and times searches', async () => {
    const { cookie } = await signInAs(testApp);
    await insertCatalogItems(testApp.database, [{ title: 'Searchable otter', tags: ['otter'] }]);
    const before = await scrape();
    for (let i = 0; i < 2; i += 1) {
      const response = await testApp.app.inject({
        url: '/v1/gifs/search?q=otter',
        headers: { cookie },
      });
      expect(response.statusCode).toBe(200);
    }
    const after = await scrape();
    const cache = { cache: 'v1_search_pages' };
    const lookups = (samples: Sample[], result: string) =>
      sumOf(samples, 'sticky_kept_answer_lookups_total', { ...cache, result });
    expect(lookups(after, 'miss') - lookups(before, 'miss')).toBeGreaterThanOrEqual(1);
    expect(lookups(after, 'hit') - lookups(before, 'hit')).toBeGreaterThanOrEqual(1);
    expect(
      sumOf(after, 'sticky_catalog_query_duration_seconds_count', { query: 'search' }),
    ).toBeGreaterThan(
      sumOf(before, 'sticky_catalog_query_duration_seconds_count', { query: 'search' }),
    );
  });

  it('counts an upload refused, by its reason', async () => {
    const { cookie } = await signInAs(testApp);
    const reason = { outcome: 'refused', reason: 'unsupported_media_type' };
    const counted = sumOf(await scrape(), 'sticky_uploads_total', reason);
    const response = await postUploads(testApp, sameSiteHeaders(testApp, cookie), [
      { name: 'notes.txt', bytes: Buffer.from('not an image at all'), contentType: 'text/plain' },
    ]);
    expect(response.statusCode).toBe(415);
    expect(sumOf(await scrape(), 'sticky_uploads_total', reason)).toBe(counted + 1);
  });

  it('refuses another address without the token, and a wrong token anywhere', async () => {
    const fromAfar = await testApp.app.inject({
      url: '/metrics',
      remoteAddress: '203.0.113.7',
    });
    expect(fromAfar.statusCode).toBe(403);
    expect(fromAfar.json().error.code).toBe('forbidden');
    expect(fromAfar.body).not.toContain('sticky_http_requests_total');

    // A reverse proxy on this machine: the socket is loopback, the visitor is not.
    const proxied = await testApp.app.inject({
      url: '/metrics',
      headers: { 'x-forwarded-for': '203.0.113.7' },
    });
    expect(proxied.statusCode).toBe(403);

    for (const authorization of [`Bearer ${token}x`, `Bearer ${token.slice(1)}`, token]) {
      const wrong = await testApp.app.inject({
        url: '/metrics',
        remoteAddress: '203.0.113.7',
        headers: { authorization },
      });
      expect(wrong.statusCode, authorization).toBe(403);
    }
    const wrongFromLoopback = await testApp.app.inject({
      url: '/metrics',
      headers: { authorization: `Bearer ${token}x` },
    });
    expect(wrongFromLoopback.statusCode).toBe(403);
  });

  it('answers another address that sends the token', async () => {
    const response = await testApp.app.inject({
      url: '/metrics',
      remoteAddress: '203.0.113.7',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(200);
    expect(() => parsePrometheusText(response.body)).not.toThrow();
    expect(response.body).toContain('sticky_http_requests_total');
  });
});

describe('GET /metrics without METRICS_TOKEN', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it('is never public: another address is refused whatever it sends', async () => {
    for (const headers of [{}, { authorization: 'Bearer anything-at-all-0123456789abcdefgh' }]) {
      const response = await testApp.app.inject({
        url: '/metrics',
        remoteAddress: '198.51.100.20',
        headers,
      });
      expect(response.statusCode).toBe(403);
    }
    const local = await testApp.app.inject({ url: '/metrics' });
    expect(local.statusCode).toBe(200);
  });
});
