import { vi } from 'vitest';

/** One request the app made through `fetch`. */
export interface ApiCall {
  method: string;
  url: string;
  /** The JSON body, parsed; undefined without one. */
  body: unknown;
  credentials: RequestCredentials | undefined;
}

type Reply = Response | ((call: ApiCall) => Response | Promise<Response>);

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A request that never answers: the app stays in its loading state. */
export const never = () => new Promise<Response>(() => {});

function findReply(replies: Record<string, Reply>, method: string, url: string) {
  const path = url.split('?')[0]!;
  const exact = replies[`${method} ${path}`];
  if (exact) return exact;
  // A key ending in '/' answers every path under it; the longest such key wins.
  const prefix = Object.keys(replies)
    .filter((key) => key.endsWith('/') && `${method} ${path}`.startsWith(key))
    .sort((a, b) => b.length - a.length)[0];
  return prefix ? replies[prefix] : undefined;
}

/**
 * Stubs `fetch` with answers keyed by "METHOD /path" (the query is ignored; a key ending in
 * '/' answers every path under it) and records every call. A request nobody answers fails
 * the test loudly.
 */
export function stubApi(replies: Record<string, Reply>) {
  const calls: ApiCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init?.method ?? 'GET').toUpperCase();
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const call: ApiCall = { method, url, body, credentials: init?.credentials };
    calls.push(call);
    const reply = findReply(replies, method, url);
    if (!reply) throw new Error(`unexpected request: ${method} ${url}`);
    return typeof reply === 'function' ? reply(call) : reply;
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}
