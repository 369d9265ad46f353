import { describe, expect, it, vi } from 'vitest';
import { apiErrorCodeSchema, subcategorySchema } from '@sticky/contracts';
import { ApiClientError, apiDelete, apiGet, apiPost } from './api-client.ts';

// Any contract schema will do; this one has two required strings.
const itemSchema = subcategorySchema;

function stubFetch(response: Response | Error) {
  const fetchMock = vi.fn(async () => {
    if (response instanceof Error) throw response;
    return response;
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

describe('api client', () => {
  it('sends same-origin credentials and returns the parsed body', async () => {
    const fetchMock = stubFetch(json({ name: 'Cats', name_encoded: 'cats', extra: true }));
    await expect(apiGet('/api/things/abc', itemSchema)).resolves.toEqual({
      name: 'Cats',
      name_encoded: 'cats',
    });
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/things/abc',
      expect.objectContaining({ method: 'GET', credentials: 'same-origin', body: undefined }),
    );
  });

  it('accepts the schema as a promise', async () => {
    stubFetch(json({ name: 'x', name_encoded: 'x' }));
    await expect(apiGet('/api/things/x', Promise.resolve(itemSchema))).resolves.toEqual({
      name: 'x',
      name_encoded: 'x',
    });
  });

  it('sends a JSON body with its content type', async () => {
    const fetchMock = stubFetch(json({ name: 'cat', name_encoded: 'cat' }, 201));
    await apiPost('/api/things', { name: 'cat' }, itemSchema, { credentials: 'omit' });
    const init = (fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1];
    expect(init.body).toBe('{"name":"cat"}');
    expect(init.credentials).toBe('omit');
    expect((init.headers as Record<string, string>)['content-type']).toBe('application/json');
  });

  it('resolves an empty answer when no schema is asked for', async () => {
    stubFetch(new Response(null, { status: 204 }));
    await expect(apiDelete('/api/things/x', null)).resolves.toBeUndefined();
  });

  it("throws the server's error code and message", async () => {
    stubFetch(
      json({ success: false, error: { code: 'rate_limited', message: 'Slow down.' } }, 429),
    );
    const error = await apiGet('/api/things', itemSchema).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiClientError);
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', message: 'Slow down.' });
  });

  it.each(apiErrorCodeSchema.options)(
    "passes the contract's error code %s through",
    async (code) => {
      stubFetch(json({ success: false, error: { code, message: 'Why.' } }, 400));
      await expect(apiGet('/api/things', itemSchema)).rejects.toMatchObject({ code });
    },
  );

  it('calls an error status without our error body http_error, keeping the status', async () => {
    stubFetch(new Response('<html>Bad Gateway</html>', { status: 502 }));
    await expect(apiGet('/api/things', itemSchema)).rejects.toMatchObject({
      status: 502,
      code: 'invalid_response',
    });
    stubFetch(json({ message: 'not ours' }, 502));
    await expect(apiGet('/api/things', itemSchema)).rejects.toMatchObject({
      status: 502,
      code: 'http_error',
      message: 'Request failed (HTTP 502).',
    });
  });

  it('parses accepted non-2xx statuses instead of throwing', async () => {
    stubFetch(json({ name: 'n', name_encoded: 'n' }, 401));
    await expect(apiGet('/api/things', itemSchema, { acceptStatuses: [401] })).resolves.toEqual({
      name: 'n',
      name_encoded: 'n',
    });
  });

  it('throws invalid_response when the body does not match the contract', async () => {
    stubFetch(json({ name: 42 }));
    await expect(apiGet('/api/things', itemSchema)).rejects.toMatchObject({
      code: 'invalid_response',
    });
  });

  it('throws invalid_response on a body that is not JSON', async () => {
    stubFetch(new Response('<html>oops</html>', { status: 200 }));
    await expect(apiGet('/api/things', itemSchema)).rejects.toMatchObject({
      code: 'invalid_response',
    });
  });

  it('throws a network error when no response arrives', async () => {
    stubFetch(new TypeError('Failed to fetch'));
    await expect(apiGet('/api/things', itemSchema)).rejects.toMatchObject({
      status: 0,
      code: 'network',
    });
  });

  it('refuses paths outside /api/', async () => {
    stubFetch(json({}));
    await expect(apiGet('https://evil.example/api/x', itemSchema)).rejects.toThrow(TypeError);
  });
});
