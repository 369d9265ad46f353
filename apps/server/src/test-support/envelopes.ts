import { apiErrorSchema, errorEnvelopeSchema, tenorErrorSchema } from '@sticky/contracts';
import type { FastifyInstance } from 'fastify';
import zlib from 'node:zlib';
import { z } from 'zod';
import type { RouteEntry } from '../plugins/route-inventory.ts';

/** What a test saw: enough to judge an answer, whether from `inject` or a real socket. */
export interface SeenResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

export const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** `METHOD /pattern` of a route, as tests name them. */
export const routeName = (route: Pick<RouteEntry, 'method' | 'url'>) =>
  `${route.method} ${route.url}`;

/** `/api` and the versioned APIs (`/v1`, `/v2`). */
export const isApiUrl = (url: string) => /^\/(api|v\d+)(\/|\*|$)/.test(url);
/** GIPHY's envelope: `/v1`, and GIPHY's emoji beside Tenor's API under `/v2/emoji`. */
const isGiphyUrl = (url: string) => /^\/(?:v1|v2\/emoji)(?:[/?]|$)/.test(url);
/** Tenor's envelope: the rest of `/v2`. */
const isTenorUrl = (url: string) => !isGiphyUrl(url) && /^\/v2(?:[/?]|$)/.test(url);

/**
 * The app's own `/api` and `/v1` (`/v2`…) routes (HEAD twins left out), read from the routes
 * themselves: what the hostile-input, cross-site and OpenAPI tests must cover. Routes hidden
 * from the API document (its own pages, CORS preflight) are not API routes.
 */
export function listApiRoutes(app: Pick<FastifyInstance, 'routeInventory'>): RouteEntry[] {
  return app.routeInventory.filter(
    (route) => isApiUrl(route.url) && route.method !== 'HEAD' && !route.schema?.hide,
  );
}

/** The app's state-changing routes under `/api` and `/v1`. */
export function listWriteRoutes(app: Pick<FastifyInstance, 'routeInventory'>): RouteEntry[] {
  return listApiRoutes(app).filter((route) => WRITE_METHODS.has(route.method));
}

/** The zod schema a route declares for `status` (exact, then `4xx`/`5xx`), if any. */
export function declaredResponse(route: RouteEntry, status: number): z.ZodType | undefined {
  const responses = (route.schema?.response ?? {}) as Record<string, unknown>;
  const declared = responses[String(status)] ?? responses[`${String(status)[0]}xx`];
  if (declared instanceof z.ZodType) return declared;
  return undefined;
}

/** Whether a route declares `status` at all (an exact code, or its `4xx`/`5xx` class). */
export function declaresStatus(route: RouteEntry, status: number): boolean {
  const responses = (route.schema?.response ?? {}) as Record<string, unknown>;
  return String(status) in responses || `${String(status)[0]}xx` in responses;
}

function header(response: SeenResponse, name: string): string {
  const value = response.headers[name];
  return Array.isArray(value) ? value.join(', ') : String(value ?? '');
}

function parseJson(label: string, response: SeenResponse): unknown {
  if (!header(response, 'content-type').startsWith('application/json')) {
    throw describeProblem(
      label,
      response,
      `expected JSON, got ${header(response, 'content-type')}`,
    );
  }
  return JSON.parse(response.body);
}

function describeProblem(label: string, response: SeenResponse, problem: string): Error {
  return new Error(`${label} → ${response.status}: ${problem}\n${response.body.slice(0, 400)}`);
}

/**
 * Throws unless the answer is one a client can rely on: never a 5xx (503 only when
 * `allowUnavailable`), a status the route declares, and a body its declared schema for that
 * status accepts: the route's own response schemas are the table (GIPHY's `{meta}` under
 * `/v1`, `{success:false,error}` under `/api`, the spec'd `{success:false,user:null}` of a
 * signed-out `/api/auth/me`). Redirects must stay on this site. `route` is undefined for
 * paths no route serves: those must answer the not-found envelope of their API.
 */
export function assertEnvelope(
  url: string,
  route: RouteEntry | undefined,
  response: SeenResponse,
  options: { allowUnavailable?: boolean; publicOrigin?: string; method?: string } = {},
): void {
  const label = route ? routeName(route) : url;
  const isAllowed5xx = options.allowUnavailable && response.status === 503;
  if (response.status >= 500 && !isAllowed5xx) {
    throw describeProblem(label, response, 'server error');
  }
  const isHead = options.method === 'HEAD';
  const isGiphy = isGiphyUrl(url);

  if (response.status >= 300 && response.status < 400) {
    if (!route || !declaresStatus(route, response.status)) {
      throw describeProblem(label, response, 'a redirect the route does not declare');
    }
    const location = header(response, 'location');
    const target = new URL(location, options.publicOrigin ?? 'http://localhost');
    const isOurs =
      location.startsWith('/') && !location.startsWith('//') && !location.startsWith('/\\');
    const isOurOrigin =
      options.publicOrigin !== undefined && target.origin === options.publicOrigin;
    if (!isOurs && !isOurOrigin) {
      throw describeProblem(label, response, `redirects off-site to ${location}`);
    }
    // A sign-in page saying "something went wrong" is a 5xx in disguise.
    if (target.searchParams.get('error') === 'server_error' && !options.allowUnavailable) {
      throw describeProblem(label, response, 'redirects to a server_error page');
    }
    return;
  }

  const isSuccess = response.status >= 200 && response.status < 300;
  let schema: z.ZodType | undefined;
  if (route) {
    if (!declaresStatus(route, response.status)) {
      throw describeProblem(label, response, 'a status the route does not declare');
    }
    schema = declaredResponse(route, response.status);
  } else if (isSuccess) {
    throw describeProblem(label, response, 'a success on a path no route serves');
  } else {
    schema = isGiphy ? errorEnvelopeSchema : isTenorUrl(url) ? tenorErrorSchema : apiErrorSchema;
  }
  if (isHead || !schema) return;
  if (schema instanceof z.ZodUndefined) {
    if (response.body !== '') throw describeProblem(label, response, 'expected no body');
    return;
  }
  const parsed = schema.safeParse(parseJson(label, response));
  if (!parsed.success) {
    throw describeProblem(label, response, `body off its schema: ${parsed.error.message}`);
  }
  const meta = (parsed.data as { meta?: { status: number; msg: string; response_id: string } })
    .meta;
  if (isGiphy && meta) {
    const expected = isSuccess ? 200 : response.status;
    if (meta.status !== expected) {
      throw describeProblem(label, response, `meta.status ${meta.status} ≠ ${expected}`);
    }
    if (meta.msg.trim() === '' || meta.response_id === '') {
      throw describeProblem(label, response, 'empty meta.msg or meta.response_id');
    }
  }
  const error = (parsed.data as { error?: { message: string } }).error;
  if (error && error.message.trim() === '') {
    throw describeProblem(label, response, 'empty error message');
  }
}

/** An injected answer's body as text, decompressed as its Content-Encoding says. */
export function decodeBody(response: {
  headers: Record<string, unknown>;
  rawPayload: Buffer;
}): string {
  const coding = response.headers['content-encoding'];
  const raw = response.rawPayload;
  const decoded =
    coding === 'br'
      ? zlib.brotliDecompressSync(raw)
      : coding === 'gzip'
        ? zlib.gunzipSync(raw)
        : raw;
  return decoded.toString('utf8');
}
