import { randomBytes } from 'node:crypto';
import type { GiphyChannel } from '@sticky/contracts';
import {
  channelListEnvelopeSchema,
  channelSearchParamsSchema,
  randomIdEnvelopeSchema,
  relatedTagsEnvelopeSchema,
  relatedTagsParamsSchema,
  relatedTagsPathSchema,
} from '@sticky/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { searchChannels } from '../../catalog/query/channels.ts';
import type { ChannelRow } from '../../catalog/query/channels.ts';
import { loadItemsByIds } from '../../catalog/query/items.ts';
import { listRelatedTags } from '../../catalog/query/related-tags.ts';
import { serializeItems, toUser } from '../../catalog/query/serialize.ts';
import { giphyErrorResponses } from '../../plugins/error-handler.ts';
import { listEnvelope, singleEnvelope } from './envelope.ts';

function toChannel(row: ChannelRow, featured: GiphyChannel['featured_gif']): GiphyChannel {
  const { creator } = row;
  return {
    id: creator.id,
    url: `/${creator.username}`,
    display_name: creator.displayName,
    parent: null,
    slug: creator.username,
    type: 'community',
    content_type: 'gif',
    user: toUser(creator),
    banner_image: '',
    short_display_name: creator.displayName,
    description: creator.description,
    metadata_description: creator.description,
    has_children: false,
    is_visible: true,
    is_private: false,
    is_live: false,
    ...(featured ? { featured_gif: featured } : {}),
    tags: [],
  };
}

/** `randomid`, `tags/related/{term}` and `channels/search` (docs/api.md, "/v1"). */
export const discoveryRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;

  app.get(
    '/randomid',
    {
      schema: {
        summary: 'A new random id, for a client to name one of its people',
        response: { 200: randomIdEnvelopeSchema, ...giphyErrorResponses },
      },
    },
    // GIPHY uses it to tell apart the people of one app; we keep nothing about it.
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return singleEnvelope({ random_id: randomBytes(16).toString('hex') });
    },
  );

  app.get(
    '/tags/related/:term',
    {
      schema: {
        summary: 'Tags that go with a term (search suggestions)',
        params: relatedTagsPathSchema,
        querystring: relatedTagsParamsSchema,
        response: { 200: relatedTagsEnvelopeSchema, ...giphyErrorResponses },
      },
    },
    async (request) => {
      const tags = await listRelatedTags(deps, {
        term: request.params.term,
        limit: request.query.limit,
      });
      return singleEnvelope(tags.map((name) => ({ name })));
    },
  );

  app.get(
    '/channels/search',
    {
      schema: {
        summary: 'Creators by name or description',
        querystring: channelSearchParamsSchema,
        response: { 200: channelListEnvelopeSchema, ...giphyErrorResponses },
      },
    },
    async (request) => {
      const params = request.query;
      const page = await searchChannels(deps, params);
      const featuredIds = page.rows.flatMap((row) => row.featuredItemId ?? []);
      const featured = new Map(
        (await serializeItems(deps, await loadItemsByIds(deps, featuredIds))).map((item) => [
          item.id,
          item,
        ]),
      );
      const channels = page.rows.map((row) =>
        toChannel(row, row.featuredItemId ? featured.get(row.featuredItemId) : undefined),
      );
      return listEnvelope(channels, page.totalCount, params.offset);
    },
  );
};
