import {
  apiErrorSchema,
  categorySchema,
  clientConfigSchema,
  errorEnvelopeSchema,
  favoritesResponseSchema,
  favoriteWriteResponseSchema,
  giphyItemSchema,
  itemEventResponseSchema,
  listEnvelopeSchema,
  logoutResponseSchema,
  meResponseSchema,
  mergeFavoritesResponseSchema,
  singleEnvelopeSchema,
  tagSuggestionSchema,
  trendingSearchesEnvelopeSchema,
} from '@sticky/contracts';
import type { z } from 'zod';

/** What a test saw: enough to judge an answer, whether from `inject` or a real socket. */
export interface SeenResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

const itemList = listEnvelopeSchema(giphyItemSchema);
const singleItem = singleEnvelopeSchema(giphyItemSchema);

/** The success shape of each `/v1` and `/api` route, keyed `METHOD /pattern`. */
export const successSchemas: Record<string, z.ZodType | 'empty' | 'redirect'> = {
  'GET /v1/gifs': itemList,
  'GET /v1/gifs/trending': itemList,
  'GET /v1/gifs/search': itemList,
  'GET /v1/gifs/related': itemList,
  'GET /v1/gifs/random': singleItem,
  'GET /v1/gifs/:id': singleItem,
  'GET /v1/gifs/search/tags': listEnvelopeSchema(tagSuggestionSchema),
  'GET /v1/gifs/categories': listEnvelopeSchema(categorySchema),
  'GET /v1/gifs/categories/:category': listEnvelopeSchema(categorySchema),
  'GET /v1/gifs/categories/:category/:subcategory': itemList,
  'GET /v1/stickers/trending': itemList,
  'GET /v1/stickers/search': itemList,
  'GET /v1/stickers/related': itemList,
  'GET /v1/stickers/random': singleItem,
  'GET /v1/text/trending': itemList,
  'GET /v1/text/search': itemList,
  'GET /v1/trending/searches': trendingSearchesEnvelopeSchema,
  'GET /v1/text/animate': itemList,
  'GET /api/auth/me': meResponseSchema,
  'POST /api/auth/logout': logoutResponseSchema,
  'GET /api/auth/googleAuth': 'redirect',
  'GET /api/auth/callback': 'redirect',
  'POST /api/analytics/pageview': 'empty',
  'GET /api/favorites': favoritesResponseSchema,
  'POST /api/favorites/merge': mergeFavoritesResponseSchema,
  'PUT /api/favorites/:id': favoriteWriteResponseSchema,
  'DELETE /api/favorites/:id': favoriteWriteResponseSchema,
  'GET /api/config': clientConfigSchema,
  'POST /api/events': itemEventResponseSchema,
};

function header(response: SeenResponse, name: string): string {
  const value = response.headers[name];
  return Array.isArray(value) ? value.join(', ') : String(value ?? '');
}

function parseJson(response: SeenResponse): unknown {
  if (!header(response, 'content-type').startsWith('application/json')) {
    throw new Error(`expected JSON, got content-type ${header(response, 'content-type')}`);
  }
  return JSON.parse(response.body);
}

function describeProblem(route: string, response: SeenResponse, problem: string): Error {
  return new Error(`${route} → ${response.status}: ${problem}\n${response.body.slice(0, 400)}`);
}

/**
 * Throws unless the answer is one a client can rely on: never a 5xx (503 only when
 * `allowUnavailable`), GIPHY's `{meta}` under `/v1`, `{success:false,error}` under `/api`
 * (the spec'd `{success:false,user:null}` for a signed-out `/api/auth/me`), and the route's
 * own success shape on 2xx. `route` is `METHOD /pattern`, or undefined for unknown paths.
 */
export function assertEnvelope(
  url: string,
  route: string | undefined,
  response: SeenResponse,
  options: { allowUnavailable?: boolean; publicOrigin?: string; method?: string } = {},
): void {
  const label = route ?? url;
  const isAllowed5xx = options.allowUnavailable && response.status === 503;
  if (response.status >= 500 && !isAllowed5xx) {
    throw describeProblem(label, response, 'server error');
  }
  const isHead = options.method === 'HEAD' || (route?.startsWith('HEAD ') ?? false);
  const isV1 = url === '/v1' || url.startsWith('/v1/') || url.startsWith('/v1?');
  const kind = route ? successSchemas[route.replace(/^HEAD /, 'GET ')] : undefined;

  if (kind === 'redirect' && response.status === 302) {
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
  if (isHead) return;
  if (response.status >= 200 && response.status < 300) {
    if (kind === 'empty') {
      if (response.body !== '') throw describeProblem(label, response, 'expected no body');
      return;
    }
    if (kind === undefined || kind === 'redirect') {
      throw describeProblem(label, response, 'unexpected success on this path');
    }
    const parsed = kind.safeParse(parseJson(response));
    if (!parsed.success) {
      throw describeProblem(label, response, `success body off contract: ${parsed.error.message}`);
    }
    if (isV1) {
      const meta = (parsed.data as { meta: { status: number; response_id: string } }).meta;
      if (meta.status !== 200 || meta.response_id === '') {
        throw describeProblem(label, response, 'meta.status or meta.response_id is wrong');
      }
    }
    return;
  }
  if (response.status >= 300 && response.status < 400) {
    throw describeProblem(label, response, 'unexpected redirect');
  }
  const body = parseJson(response);
  if (isV1) {
    const parsed = errorEnvelopeSchema.safeParse(body);
    if (!parsed.success) throw describeProblem(label, response, 'not a GIPHY error envelope');
    const { meta } = parsed.data;
    if (meta.status !== response.status) {
      throw describeProblem(label, response, `meta.status ${meta.status} ≠ HTTP status`);
    }
    if (meta.msg.trim() === '' || meta.response_id === '') {
      throw describeProblem(label, response, 'empty meta.msg or meta.response_id');
    }
    return;
  }
  if (route === 'GET /api/auth/me' && response.status === 401) {
    if (!meResponseSchema.safeParse(body).success) {
      throw describeProblem(label, response, 'signed-out /me is not {success:false,user:null}');
    }
    return;
  }
  const parsed = apiErrorSchema.safeParse(body);
  if (!parsed.success) throw describeProblem(label, response, 'not an {success:false,error} body');
  if (parsed.data.error.message.trim() === '') {
    throw describeProblem(label, response, 'empty error message');
  }
}
