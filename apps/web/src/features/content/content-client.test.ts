import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, stubApi } from '@/test-support/api.ts';
import { createContentClient, getContentClient } from './content-client.ts';

const okList = () =>
  new Response(
    JSON.stringify({
      data: [],
      pagination: { total_count: 0, count: 0, offset: 0 },
      meta: { status: 200, msg: 'OK', response_id: 'r1' },
    }),
    { status: 200, headers: { 'content-type': 'application/json' } },
  );

/** The real GIPHY client, with only `fetch` replaced: checks the URLs it really builds. */
describe('createContentClient', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    fetchMock = vi.fn(async () => okList());
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  const requested = () => new URL(String(fetchMock.mock.calls.at(-1)![0]));

  it('points the client at our own /v1 in local mode', async () => {
    const { gf } = createContentClient(
      { source: 'local', apiKey: 'sticky-web', analyticsScriptUrl: null },
      'http://sticky.test',
    );
    await gf.trending({
      limit: 25,
      offset: 0,
      type: 'stickers',
      rating: 'g',
      cacheBust: 1,
    } as never);
    const url = requested();
    expect(url.origin + url.pathname).toBe('http://sticky.test/v1/stickers/trending');
    expect(url.searchParams.get('api_key')).toBe('sticky-web');
    expect(url.searchParams.get('rating')).toBe('g');
    expect(url.searchParams.get('limit')).toBe('25');
    expect(url.searchParams.get('pingback_id')).toHaveLength(16);
  });

  it('points the client at the configured GIPHY API in giphy mode', async () => {
    const { gf, withParams } = createContentClient(
      {
        source: 'giphy',
        apiKey: 'k',
        apiUrl: 'http://fake-giphy.test/v1',
        analyticsScriptUrl: null,
      },
      'http://sticky.test',
    );
    await gf.search('cats', {
      limit: 25,
      offset: 0,
      lang: 'en',
      sort: 'relevant',
      rating: 'pg-13',
    });
    let url = requested();
    expect(url.origin + url.pathname).toBe('http://fake-giphy.test/v1/gifs/search');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      q: 'cats',
      api_key: 'k',
      lang: 'en',
      sort: 'relevant',
      rating: 'pg-13',
    });

    await withParams({ limit: '25', offset: '50' }).gifs('reactions', 'happy');
    url = requested();
    expect(url.pathname).toBe('/v1/gifs/categories/reactions/happy');
    expect(url.searchParams.get('offset')).toBe('50');
    expect(url.searchParams.get('limit')).toBe('25');
  });

  it('turns an error answer into the client’s prefixed message', async () => {
    const { gf } = createContentClient(
      { source: 'local', apiKey: 'sticky-web', analyticsScriptUrl: null },
      'http://sticky.test',
    );
    fetchMock.mockResolvedValueOnce(
      new Response(JSON.stringify({ meta: { status: 404, msg: 'Not Found', response_id: 'x' } }), {
        status: 404,
      }),
    );
    await expect(gf.gif('nope-unique-id')).rejects.toThrow('@giphy/js-fetch-api: Not Found');
  });
});

describe('getContentClient', () => {
  it('makes the client from one /api/config request, kept by the app that asked', async () => {
    const { calls } = stubApi({
      'GET /api/config': () =>
        json({ source: 'local', apiKey: 'sticky-web', analyticsScriptUrl: null }),
    });
    const queryClient = new QueryClient();
    const [first, second] = await Promise.all([
      getContentClient(queryClient),
      getContentClient(queryClient),
    ]);
    expect(first).toBe(second);
    expect(await getContentClient(queryClient)).toBe(first);
    expect(first.config).toEqual({
      source: 'local',
      apiKey: 'sticky-web',
      analyticsScriptUrl: null,
    });
    expect(calls).toHaveLength(1);

    // Another app has its own.
    await getContentClient(new QueryClient());
    expect(calls).toHaveLength(2);
  });

  it('asks again after a failed start (a Retry can work)', async () => {
    let isDown = true;
    const { calls } = stubApi({
      'GET /api/config': () =>
        isDown
          ? json({ success: false, error: { code: 'unavailable', message: 'Later.' } }, 503)
          : json({ source: 'local', apiKey: 'sticky-web', analyticsScriptUrl: null }),
    });
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    await expect(getContentClient(queryClient)).rejects.toMatchObject({ status: 503 });
    isDown = false;
    await expect(getContentClient(queryClient)).resolves.toMatchObject({
      config: { source: 'local' },
    });
    expect(calls).toHaveLength(2);
  });
});
