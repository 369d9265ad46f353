import { vi } from 'vitest';

export interface ApiCall {
  method: string;
  url: string;
  body: unknown;
  init: RequestInit | undefined;
}

type Reply = Response | Promise<Response> | (() => Response | Promise<Response>);

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A request that never answers: the app stays in its loading state. */
export const never = () => new Promise<Response>(() => {});

/**
 * Stubs `fetch` with answers keyed by "METHOD /path" (exact path, query ignored); records
 * every call. A request with no answer fails the test loudly.
 */
export function stubApi(replies: Record<string, Reply>) {
  const calls: ApiCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init?.method ?? 'GET').toUpperCase();
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    calls.push({ method, url, body, init });
    const reply = replies[`${method} ${url.split('?')[0]}`];
    if (!reply) throw new Error(`unexpected request: ${method} ${url}`);
    return typeof reply === 'function' ? reply() : reply;
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}
