import type { ContentFilter } from '@sticky/contracts';
import {
  autocompleteParamsSchema,
  idsParamsSchema,
  itemIdPathSchema,
  randomParamsSchema,
  relatedParamsSchema,
  searchParamsSchema,
  trendingParamsSchema,
} from '@sticky/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { suggestTags } from '../../catalog/query/autocomplete.ts';
import type { ItemType } from '../../catalog/query/items.ts';
import { pickRandomItem } from '../../catalog/query/random.ts';
import { listRelatedItemIds } from '../../catalog/query/related.ts';
import { recordSearchQuery, searchItemIds, searchTextItemIds } from '../../catalog/query/search.ts';
import { serializeItems, serializeItemsJson } from '../../catalog/query/serialize.ts';
import { readTrendingPage } from '../../catalog/query/trending-pages.ts';
import { listTrendingSearches } from '../../catalog/query/trending.ts';
import { AppError } from '../../lib/app-error.ts';
import { v1RateLimit } from './access.ts';
import {
  listEnvelope,
  listEnvelopeJson,
  parseParams,
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

/** Trending, search, by id, related, random, autocomplete and trending searches. */
export const contentRoutes: FastifyPluginAsync = async (app) => {
  const deps = app.deps;

  for (const segment of ['gifs', 'stickers', 'text'] as const) {
    const types = [itemTypeBySegment[segment]];

    app.get(`/${segment}/trending`, async (request, reply) => {
      const params = parseParams(trendingParamsSchema, request.query);
      // Kept serialised while the catalog is unchanged (trending-pages.ts): sent as is.
      const page = await readTrendingPage(deps, { ...params, types });
      return sendJson(reply, listEnvelopeJson(page.data, page.totalCount, params.offset));
    });

    // Text search draws the query when it is new (text-search.ts): CPU, so rate-limited.
    const searchOptions = segment === 'text' ? { config: v1RateLimit } : {};
    app.get(`/${segment}/search`, searchOptions, async (request, reply) => {
      const params = parseParams(searchParamsSchema, request.query);
      const options = { ...params, q: params.q! };
      // Text search adds renderings of the query itself (text-search.ts).
      const page =
        segment === 'text'
          ? await searchTextItemIds(deps, options)
          : await searchItemIds(deps, { ...options, types });
      const isFirstHit = params.offset === 0 && page.totalCount > 0;
      const [data] = await Promise.all([
        serializeItemsJson(deps, page.rows),
        isFirstHit
          ? recordSearchQuery(deps, options.q).catch((error: unknown) =>
              request.log.warn({ err: error }, 'could not record a search query'),
            )
          : undefined,
      ]);
      return sendJson(reply, listEnvelopeJson(data, page.totalCount, params.offset));
    });
  }

  for (const segment of ['gifs', 'stickers'] as const) {
    const types = [itemTypeBySegment[segment]];

    app.get(`/${segment}/related`, async (request, reply) => {
      const params = parseParams(relatedParamsSchema, request.query);
      const page = await listRelatedItemIds(deps, { ...params, itemId: params.gif_id, types });
      const data = await serializeItemsJson(deps, page.rows);
      return sendJson(reply, listEnvelopeJson(data, page.totalCount, params.offset));
    });

    app.get(`/${segment}/random`, async (request, reply) => {
      const params = parseParams(randomParamsSchema, request.query);
      const row = await pickRandomItem(deps, { ...params, types });
      const [item] = row ? await serializeItems(deps, [row]) : [];
      if (!item) {
        throw new AppError(
          'not_found',
          params.tag
            ? `No ${nounBySegment[segment]} found for tag ${params.tag}`
            : `No ${nounBySegment[segment]} yet`,
        );
      }
      reply.header('cache-control', 'no-store');
      return singleEnvelope(item);
    });
  }

  app.get('/gifs', async (request, reply) => {
    const { ids } = parseParams(idsParamsSchema, request.query);
    const data = await serializeItemsJson(deps, ids);
    return sendJson(reply, listEnvelopeJson(data, data.count, 0));
  });

  app.get('/gifs/:id', async (request, reply) => {
    const { id } = parseParams(itemIdPathSchema, request.params);
    const data = await serializeItemsJson(deps, [id]);
    if (data.count === 0) throw new AppError('not_found', `No item with id ${id}`);
    return sendJson(reply, singleEnvelopeJson(data));
  });

  app.get('/gifs/search/tags', async (request) => {
    const params = parseParams(autocompleteParamsSchema, request.query);
    const page = await suggestTags(deps, { ...params, q: params.q! });
    return listEnvelope(
      page.rows.map((name) => ({ name })),
      page.totalCount,
      params.offset,
    );
  });

  app.get('/trending/searches', async () => {
    return singleEnvelope(await listTrendingSearches(deps));
  });
};
