import type { GiphyItem, Rating, TenorContentFilter } from '@sticky/contracts';
import {
  limits,
  tenorErrorSchema,
  tenorListParamsSchema,
  tenorPostsParamsSchema,
  tenorCategoriesParamsSchema,
  tenorCategoriesSchema,
  tenorResultsSchema,
  tenorSearchParamsSchema,
  tenorShareParamsSchema,
  tenorShareSchema,
  tenorTermParamsSchema,
  tenorTermsSchema,
} from '@sticky/contracts';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { recordItemEvent } from '../../catalog/activity/item-events.ts';
import { suggestTags } from '../../catalog/query/autocomplete.ts';
import { listCategories } from '../../catalog/query/categories.ts';
import type { ItemType } from '../../catalog/query/items.ts';
import { searchItemIds, searchRankingKey } from '../../catalog/query/search.ts';
import { isFromAnotherSite } from '../../catalog/requester.ts';
import { serializeItemsJson } from '../../catalog/query/item-json.ts';
import { rankingCacheOptions, slowPopularityMaxAgeMs } from '../../catalog/query/query-caches.ts';
import { readTrendingPage } from '../../catalog/query/trending-pages.ts';
import type { TrendingPage } from '../../catalog/query/trending-pages.ts';
import { VersionedCache } from '../../catalog/query/versioned-cache.ts';
import { listTrendingSearches } from '../../catalog/query/trending.ts';
import { AppError } from '../../lib/app-error.ts';
import { answerErrorsWith } from '../../plugins/error-handler.ts';
import { catalogReadsPlugin } from '../../plugins/catalog-reads.ts';
import { markAsApi } from '../../plugins/host-check.ts';
import { nulParametersPlugin } from '../../plugins/nul-parameters.ts';
import { documentRoutesAs } from '../../plugins/openapi.ts';
import { sessionUserPlugin } from '../../plugins/session.ts';
import { registerV1Access } from '../v1/access.ts';
import { makeTenorPage, sendTenorPage, shapeTenorPage } from './tenor-pages.ts';
import type { TenorPage } from './tenor-pages.ts';

/** Google's status names, which Tenor's errors carry beside the HTTP code. */
const statusNames: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  413: 'INVALID_ARGUMENT',
  414: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  503: 'UNAVAILABLE',
};

function toTenorErrorBody(error: AppError) {
  return {
    error: {
      code: error.status,
      message: error.message,
      status: statusNames[error.status] ?? 'INTERNAL',
    },
  };
}

const tenorErrorResponses = { '4xx': tenorErrorSchema, '5xx': tenorErrorSchema } as const;

/** contentfilter → the highest rating shown (docs/api.md, "/v2 (Tenor)"). */
const ratingByContentFilter: Record<TenorContentFilter, Rating> = {
  off: 'r',
  low: 'pg-13',
  medium: 'pg',
  high: 'g',
};

/**
 * searchfilter → our item types: GIFs by default, stickers for `sticker`. Every item of ours
 * moves, so `static` alone matches nothing.
 */
function typesOf(searchfilter: string | undefined): ItemType[] {
  const parts = (searchfilter ?? '').split(',');
  if (parts.includes('static')) return [];
  return parts.includes('sticker') ? ['sticker'] : ['gif'];
}

/** `next`: the offset of the following page, or '' after the last one (never skips). */
function nextPos(offset: number, shown: number, totalCount: number): string {
  const next = offset + shown;
  return shown > 0 && next < totalCount && next <= limits.maxOffset ? String(next) : '';
}

/**
 * Pages of search results kept: a page of 25 is about 30 KB of JSON (8 KB in Brotli) at the
 * bench's million items, so some 20 to 40 MB with their kept answers.
 */
const searchPagesKept = 500;

const results = { 200: tenorResultsSchema, ...tenorErrorResponses };

const tenorRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;
  // Featured pages, made once from each kept trending page; each goes when that page does.
  const featuredPages = new WeakMap<TrendingPage, TenorPage>();
  // As /v1's: an edit drops the pages showing the item at once, others after
  // unheldRankingMaxAgeMs (docs/catalog.md, "Caches and versions").
  const searchPages = new VersionedCache<
    TenorPage & { itemIds: readonly string[]; itemChanges: number | undefined }
  >({
    maxEntries: searchPagesKept,
    popularityMaxAgeMs: slowPopularityMaxAgeMs,
    onLookup: deps.metrics.countLookupsOf('v2_search_pages'),
    ...rankingCacheOptions(deps.services.itemChanges),
    itemIdsOf: (page) => page.itemIds,
  });
  app.addHook('onClose', () => searchPages.clear());

  app.get(
    '/featured',
    {
      schema: {
        summary: 'Featured (trending) GIFs or stickers, Tenor v2',
        querystring: tenorListParamsSchema,
        response: results,
      },
    },
    async (request, reply) => {
      const params = request.query;
      const types = typesOf(params.searchfilter);
      const offset = Number(params.pos ?? 0);
      if (types.length === 0) return { results: [], next: '' };
      // Kept while the trending page it is made from is (trending-pages.ts), as /v1's envelope.
      const trending = await readTrendingPage(deps, {
        types,
        rating: ratingByContentFilter[params.contentfilter],
        limit: params.limit,
        offset,
      });
      let page = featuredPages.get(trending);
      if (!page) {
        const items = JSON.parse(trending.data.json) as GiphyItem[];
        page = await makeTenorPage(deps, items, nextPos(offset, items.length, trending.totalCount));
        featuredPages.set(trending, page);
      }
      return sendTenorPage(request, reply, page, params);
    },
  );

  app.get(
    '/search',
    {
      schema: {
        summary: 'Search GIFs or stickers, Tenor v2',
        querystring: tenorSearchParamsSchema,
        response: results,
      },
    },
    async (request, reply) => {
      const params = request.query;
      const types = typesOf(params.searchfilter);
      const offset = Number(params.pos ?? 0);
      if (types.length === 0) return { results: [], next: '' };
      const options = {
        q: params.q,
        types,
        rating: ratingByContentFilter[params.contentfilter],
        limit: params.limit,
        offset,
      };
      // Kept as /v1's search pages are (docs/catalog.md, "Caches and versions").
      const key = JSON.stringify([searchRankingKey(options), offset, params.limit]);
      const versions = await deps.services.versions.read();
      const page = await searchPages.getOrMake(key, versions, () =>
        deps.metrics.timeQuery('search', async () => {
          const ranked = await searchItemIds(deps, options);
          const data = await serializeItemsJson(deps, ranked.rows);
          const page = await makeTenorPage(
            deps,
            JSON.parse(data.json) as GiphyItem[],
            nextPos(offset, ranked.rows.length, ranked.totalCount),
          );
          return { ...page, itemIds: ranked.rows, itemChanges: ranked.itemChanges };
        }),
      );
      return sendTenorPage(request, reply, page, params);
    },
  );

  app.get(
    '/posts',
    {
      schema: {
        summary: 'Items by id, Tenor v2',
        querystring: tenorPostsParamsSchema,
        response: results,
      },
    },
    async (request) => {
      const params = request.query;
      const data = await serializeItemsJson(deps, params.ids);
      const items = JSON.parse(data.json) as GiphyItem[];
      return shapeTenorPage(await makeTenorPage(deps, items, ''), params);
    },
  );

  const suggest = async (params: {
    q: string;
    limit: number;
    contentfilter: TenorContentFilter;
  }) => {
    const page = await suggestTags(deps, {
      q: params.q,
      rating: ratingByContentFilter[params.contentfilter],
      limit: params.limit,
      offset: 0,
    });
    return { results: page.rows };
  };
  const terms = { 200: tenorTermsSchema, ...tenorErrorResponses };

  app.get(
    '/autocomplete',
    {
      schema: {
        summary: 'Terms that complete what was typed, Tenor v2',
        querystring: tenorTermParamsSchema,
        response: terms,
      },
    },
    async (request) => suggest(request.query),
  );

  // Tenor suggests searches near the query; ours are the catalog's tags that start with it.
  app.get(
    '/search_suggestions',
    {
      schema: {
        summary: 'Searches to suggest for a query, Tenor v2',
        querystring: tenorTermParamsSchema,
        response: terms,
      },
    },
    async (request) => suggest(request.query),
  );

  app.get(
    '/trending_terms',
    {
      schema: {
        summary: 'What people search for most, Tenor v2',
        querystring: tenorListParamsSchema,
        response: terms,
      },
    },
    async (request) => ({
      results: (await listTrendingSearches(deps)).slice(0, request.query.limit),
    }),
  );

  app.get(
    '/categories',
    {
      schema: {
        summary: 'Featured categories or trending searches, each with an image, Tenor v2',
        querystring: tenorCategoriesParamsSchema,
        response: { 200: tenorCategoriesSchema, ...tenorErrorResponses },
      },
    },
    async (request) => {
      const { type, contentfilter } = request.query;
      const rating = ratingByContentFilter[contentfilter];
      const named =
        type === 'featured'
          ? (await listCategories(deps, { rating, limit: limits.maxLimit, offset: 0 })).rows.map(
              (category) => ({ term: category.name, item: category.gif }),
            )
          : await Promise.all(
              (await listTrendingSearches(deps)).map(async (term) => {
                const page = await searchItemIds(deps, {
                  q: term,
                  types: ['gif'],
                  rating,
                  limit: 1,
                  offset: 0,
                });
                const data = await serializeItemsJson(deps, page.rows);
                return { term, item: (JSON.parse(data.json) as GiphyItem[])[0] };
              }),
            );
      return {
        tags: named.flatMap(({ term, item }) => {
          const image = item?.images.fixed_width.url;
          if (!image) return [];
          const searchterm = term.toLowerCase();
          return [
            {
              searchterm,
              path: `/v2/search?q=${encodeURIComponent(searchterm)}`,
              image,
              name: `#${searchterm}`,
            },
          ];
        }),
      };
    },
  );

  app.get(
    '/registershare',
    {
      schema: {
        summary: 'Count a share of an item, Tenor v2',
        querystring: tenorShareParamsSchema,
        response: { 200: tenorShareSchema, ...tenorErrorResponses },
      },
    },
    async (request, reply) => {
      const { id } = request.query;
      reply.header('cache-control', 'no-store');
      // Our events are counted per person (docs/catalog.md, "Trending"): a keyed app has none,
      // so its shares are accepted and not counted; nor is a share another site made a
      // signed-in browser send, as /v1's pingbacks (docs/security.md, "Cross-site rules").
      if (!request.user || isFromAnotherSite(request, deps.config)) {
        const [item] = JSON.parse((await serializeItemsJson(deps, [id])).json) as GiphyItem[];
        if (!item) throw new AppError('not_found', `No item with id ${id}`);
        return { status: 'ok' as const, counted: false };
      }
      const result = await recordItemEvent(deps, {
        userId: request.user.id,
        itemId: id,
        kind: 'copy',
      });
      if (!result.isFound) throw new AppError('not_found', `No item with id ${id}`);
      return { status: 'ok' as const, counted: result.isCounted };
    },
  );
};

/** Tenor's `key` is our api_key: /v1's access rules read it under that name. */
function acceptTenorKey(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const query = request.query as Record<string, unknown> | undefined;
    if (query && query.api_key === undefined && typeof query.key === 'string') {
      query.api_key = query.key;
    }
  });
}

/**
 * Tenor v2-compatible API (docs/api.md, "/v2 (Tenor)"): Tenor's paths, parameters, result
 * objects and errors, so a Tenor client works by changing its base URL. Who may call it is
 * /v1's rule (session or a STICKY_API_KEYS key, CORS for keys only).
 */
export const v2Plugin = async (app: FastifyInstance): Promise<void> => {
  answerErrorsWith(app, toTenorErrorBody);
  markAsApi(app);
  // Every route of Tenor's API reads: a token needs `read` (docs/security.md, "API tokens").
  const defaultTokenScope = 'read';
  documentRoutesAs(app, 'v2', {
    security: [{ session: [] }, { apiKey: [] }],
    defaultTokenScope,
  });
  await app.register(sessionUserPlugin, { defaultTokenScope });
  acceptTenorKey(app);
  await registerV1Access(app);
  await app.register(nulParametersPlugin);
  await app.register(catalogReadsPlugin);
  await app.register(tenorRoutes);
};
