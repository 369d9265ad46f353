import type { ContentFilter, ItemType } from '@sticky/contracts';
import {
  autocompleteParamsSchema,
  idsParamsSchema,
  itemIdPathSchema,
  itemListEnvelopeSchema,
  randomParamsSchema,
  relatedParamsSchema,
  searchParamsSchema,
  singleItemEnvelopeSchema,
  tagSuggestionListEnvelopeSchema,
  trendingParamsSchema,
  trendingSearchesEnvelopeSchema,
} from '@sticky/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { finished } from 'node:stream/promises';
import { createSearchQueryRecorder } from '../../catalog/activity/search-queries.ts';
import { suggestTags } from '../../catalog/query/autocomplete.ts';
import { pickRandomItem } from '../../catalog/query/random.ts';
import { listRelatedItemIds } from '../../catalog/query/related.ts';
import { searchItemIds, searchRankingKey } from '../../catalog/query/search.ts';
import { serializeItemsJson, serializeWithheldItemJson } from '../../catalog/query/item-json.ts';
import { serializeItems } from '../../catalog/query/serialize.ts';
import { rankingCacheOptions, slowPopularityMaxAgeMs } from '../../catalog/query/query-caches.ts';
import { readTrendingPage } from '../../catalog/query/trending-pages.ts';
import { VersionedCache } from '../../catalog/query/versioned-cache.ts';
import type { TrendingPage } from '../../catalog/query/trending-pages.ts';
import { keepJson, keepPage, sendKeptJson, sendKeptPage } from '../../plugins/compression.ts';
import type { KeptJson, KeptPage } from '../../plugins/compression.ts';
import { listTrendingSearches } from '../../catalog/query/trending.ts';
import { requesterOf } from '../../catalog/requester.ts';
import { searchTextItemIds } from '../../catalog/text/text-search.ts';
import { AppError } from '../../lib/app-error.ts';
import { giphyErrorResponses } from '../../plugins/error-handler.ts';
import {
  listEnvelope,
  listEnvelopeJson,
  sendJson,
  singleEnvelope,
  singleEnvelopeJson,
} from './envelope.ts';

/** GIPHY's path segment → our item type. */
const itemTypeBySegment: Record<ContentFilter, ItemType> = {
  gifs: 'gif',
  stickers: 'sticker',
  text: 'text',
};

const nounBySegment: Record<ContentFilter, string> = {
  gifs: 'GIFs',
  stickers: 'stickers',
  text: 'animated text',
};

const itemList = { 200: itemListEnvelopeSchema, ...giphyErrorResponses };
const singleItem = { 200: singleItemEnvelopeSchema, ...giphyErrorResponses };

/**
 * Search pages kept as sent, compressed (KeptPage): about 28 KB each in Brotli, 35 KB in gzip,
 * so some 15 to 30 MB.
 */
const searchPagesKept = 500;

/** A page of a ranking as sent, with its items and when its ids were read (query-caches.ts). */
interface RankedPage {
  envelope: KeptPage;
  itemIds: readonly string[];
  itemChanges: number | undefined;
}

/** Related pages kept as sent: the related row of the items people open most. */
const relatedPagesKept = 500;

/**
 * Answers by ids kept as sent: a person's favorites page asks the same list again on every
 * visit. Fewer than search's, since a list of 100 ids is four pages' bytes.
 */
const idPagesKept = 250;

/** Trending, search, by id, related, random, autocomplete and trending searches. */
export const contentRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;
  // Each kept trending page's envelope, made once (pages are kept per type, rating, limit and
  // offset: one envelope each); it goes when the page does.
  const trendingEnvelopes = new WeakMap<TrendingPage, KeptJson>();
  // Search counts are written behind the reply; closing the app waits for those accepted (this
  // plugin's onClose runs before the app's, which closes the services they write with).
  const searchQueries = createSearchQueryRecorder(deps);
  app.addHook('onClose', () => searchQueries.flush());
  // Pages of search results as sent (docs/catalog.md, "Caches and versions"): each follows
  // catalog_version, and popularity as slowly as the rankings and item JSON it is made of.
  // An edit drops the pages showing the item at once, others after unheldRankingMaxAgeMs.
  const searchPages = new VersionedCache<RankedPage & { totalCount: number }>({
    maxEntries: searchPagesKept,
    popularityMaxAgeMs: slowPopularityMaxAgeMs,
    onLookup: deps.metrics.countLookupsOf('v1_search_pages'),
    ...rankingCacheOptions(deps.services.itemChanges),
    itemIdsOf: (page) => page.itemIds,
  });
  app.addHook('onClose', () => searchPages.clear());
  // Related pages as sent, kept as search pages are: an item many open costs its related row
  // once, then its bytes (compressing a page of 25 is most of what a kept ranking costs).
  const relatedPages = new VersionedCache<RankedPage>({
    maxEntries: relatedPagesKept,
    popularityMaxAgeMs: slowPopularityMaxAgeMs,
    onLookup: deps.metrics.countLookupsOf('v1_related_pages'),
    ...rankingCacheOptions(deps.services.itemChanges),
    // Its item's own text ranks it too.
    itemIdsOf: (page, key) => [...page.itemIds, String((JSON.parse(key) as unknown[])[0])],
  });
  app.addHook('onClose', () => relatedPages.clear());
  // Answers by ids as sent, kept as related pages are: the items' JSON was already kept, and
  // compressing a list of up to 100 items was what each request still cost.
  const idPages = new VersionedCache<KeptPage>({
    maxEntries: idPagesKept,
    popularityMaxAgeMs: slowPopularityMaxAgeMs,
    onLookup: deps.metrics.countLookupsOf('v1_id_pages'),
    // Kept by the ids asked: an edit of one of them drops the answers naming it.
    itemChanges: deps.services.itemChanges,
    itemIdsOf: (_page, ids) => ids.split(','),
  });
  app.addHook('onClose', () => idPages.clear());

  for (const segment of ['gifs', 'stickers', 'text'] as const) {
    const types = [itemTypeBySegment[segment]];
    const noun = nounBySegment[segment];

    app.get(
      `/${segment}/trending`,
      {
        schema: {
          summary: `Trending ${noun}`,
          querystring: trendingParamsSchema,
          response: itemList,
        },
      },
      async (request, reply) => {
        const params = request.query;
        // Kept serialized while the catalog is unchanged (trending-pages.ts), and its envelope
        // compressed once: sent as is. A kept page carries the response_id it was made with.
        const page = await readTrendingPage(deps, { ...params, types });
        let envelope = trendingEnvelopes.get(page);
        if (!envelope) {
          envelope = keepJson(listEnvelopeJson(page.data, page.totalCount, params.offset));
          trendingEnvelopes.set(page, envelope);
        }
        return sendKeptJson(request, reply, envelope);
      },
    );

    app.get(
      `/${segment}/search`,
      {
        // Text search draws the query when it is new (text-search.ts): CPU, so rate-limited.
        ...(segment === 'text' ? { config: { rateLimit: { max: 600 } } } : {}),
        schema: {
          summary: `Search ${noun}`,
          querystring: searchParamsSchema,
          response: itemList,
        },
      },
      async (request, reply) => {
        const params = request.query;
        // Counted for trending searches (or, finding nothing, for the admin overview's misses)
        // once the answer is sent, which does not wait for it.
        const recordSearch = (totalCount: number) => {
          if (params.offset !== 0) return;
          searchQueries.record(
            { q: params.q, hasResults: totalCount > 0 },
            requesterOf(request, deps.config),
            (error) => request.log.warn({ err: error }, 'could not record a search query'),
            // Settles once the answer is handed to the socket (or rejects if the client left).
            () => finished(reply.raw),
          );
        };
        if (segment === 'text') {
          // Text search adds renderings of the query itself (text-search.ts), not kept. It
          // always finds something, whatever was typed, so it is not counted for trending
          // searches (docs/catalog.md, "Trending").
          const page = await searchTextItemIds(deps, params, requesterOf(request, deps.config));
          const data = await serializeItemsJson(deps, page.rows);
          return sendJson(reply, listEnvelopeJson(data, page.totalCount, params.offset));
        }
        // The page as sent, kept while the catalog is unchanged: a query many make (a word
        // people type in a chat app, letter by letter) costs one made page, then its bytes.
        const options = { ...params, types };
        const key = JSON.stringify([searchRankingKey(options), params.offset, params.limit]);
        const versions = await deps.services.versions.read();
        const kept = await searchPages.getOrMake(key, versions, () =>
          deps.metrics.timeQuery('search', async () => {
            const page = await searchItemIds(deps, options);
            const data = await serializeItemsJson(deps, page.rows);
            const json = listEnvelopeJson(data, page.totalCount, params.offset);
            return {
              envelope: keepPage(request, json),
              totalCount: page.totalCount,
              itemIds: page.rows,
              itemChanges: page.itemChanges,
            };
          }),
        );
        recordSearch(kept.totalCount);
        return sendKeptPage(request, reply, kept.envelope);
      },
    );
  }

  for (const segment of ['gifs', 'stickers'] as const) {
    const types = [itemTypeBySegment[segment]];
    const noun = nounBySegment[segment];

    app.get(
      `/${segment}/related`,
      {
        schema: {
          summary: `${noun} related to one`,
          querystring: relatedParamsSchema,
          response: itemList,
        },
      },
      async (request, reply) => {
        const params = request.query;
        const key = JSON.stringify([
          params.gif_id,
          types,
          params.rating ?? null,
          params.offset,
          params.limit,
        ]);
        const versions = await deps.services.versions.read();
        const kept = await relatedPages.getOrMake(key, versions, () =>
          deps.metrics.timeQuery('related', async () => {
            const page = await listRelatedItemIds(deps, {
              ...params,
              itemId: params.gif_id,
              types,
            });
            const data = await serializeItemsJson(deps, page.rows);
            const json = listEnvelopeJson(data, page.totalCount, params.offset);
            return {
              envelope: keepPage(request, json),
              itemIds: page.rows,
              itemChanges: page.itemChanges,
            };
          }),
        );
        return sendKeptPage(request, reply, kept.envelope);
      },
    );

    app.get(
      `/${segment}/random`,
      {
        schema: {
          summary: `A random one of the ${noun}`,
          querystring: randomParamsSchema,
          response: singleItem,
        },
      },
      async (request, reply) => {
        const params = request.query;
        const row = await pickRandomItem(deps, { ...params, types });
        const [item] = row ? await serializeItems(deps, [row]) : [];
        if (!item) {
          throw new AppError(
            'not_found',
            params.tag ? `No ${noun} found for tag ${params.tag}` : `No ${noun} yet`,
          );
        }
        reply.header('cache-control', 'no-store');
        return singleEnvelope(item);
      },
    );
  }

  app.get(
    '/gifs',
    {
      schema: {
        summary: 'Items by id (GIFs, stickers and animated text alike)',
        querystring: idsParamsSchema,
        response: itemList,
      },
    },
    async (request, reply) => {
      const { ids } = request.query;
      const versions = await deps.services.versions.read();
      const kept = await idPages.getOrMake(ids.join(','), versions, async () => {
        const data = await serializeItemsJson(deps, ids);
        return keepPage(request, listEnvelopeJson(data, data.count, 0));
      });
      return sendKeptPage(request, reply, kept);
    },
  );

  app.get(
    '/gifs/:id',
    {
      schema: {
        summary: 'One item by id',
        params: itemIdPathSchema,
        response: singleItem,
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const data = await serializeItemsJson(deps, [id]);
      if (data.count > 0) return sendJson(reply, singleEnvelopeJson(data));
      // The shared path skips hidden and private items; their owner and admins still open
      // their page, read once more for them alone, never kept (docs/uploads.md, "Visibility").
      const { user } = request;
      const own = user
        ? await serializeWithheldItemJson(deps, id, { userId: user.id, isAdmin: user.isAdmin })
        : undefined;
      if (!own?.count) throw new AppError('not_found', `No item with id ${id}`);
      reply.header('cache-control', 'private, no-store');
      return sendJson(reply, singleEnvelopeJson(own));
    },
  );

  app.get(
    '/gifs/search/tags',
    {
      schema: {
        summary: 'Tags that start with the given text (autocomplete)',
        querystring: autocompleteParamsSchema,
        response: { 200: tagSuggestionListEnvelopeSchema, ...giphyErrorResponses },
      },
    },
    async (request) => {
      const params = request.query;
      const page = await suggestTags(deps, params);
      return listEnvelope(
        page.rows.map((name) => ({ name })),
        page.totalCount,
        params.offset,
      );
    },
  );

  app.get(
    '/trending/searches',
    {
      schema: {
        summary: 'What people search for most',
        response: { 200: trendingSearchesEnvelopeSchema, ...giphyErrorResponses },
      },
    },
    async () => singleEnvelope(await listTrendingSearches(deps)),
  );
};
