import { vi } from 'vitest';

export interface RecordedCall {
  method: string;
  url: string;
  body: unknown;
}

type Handler = (call: RecordedCall) => Response | Promise<Response>;

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/**
 * Stubs `fetch` for our own `/api/*` (and media) with handlers keyed by "METHOD path-prefix";
 * records every call. Unhandled requests fail loudly.
 */
export function installFetch(handlers: Record<string, Handler>) {
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init?.method ?? 'GET').toUpperCase();
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const call = { method, url, body };
    calls.push(call);
    const key = Object.keys(handlers)
      .filter((candidate) => {
        const [handlerMethod, prefix] = candidate.split(' ');
        return handlerMethod === method && url.startsWith(prefix!);
      })
      .sort((a, b) => b.length - a.length)[0];
    if (!key) throw new Error(`unexpected request ${method} ${url}`);
    return handlers[key]!(call);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}
