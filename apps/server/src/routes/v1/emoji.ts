import {
  cursorItemListEnvelopeSchema,
  emojiParamsSchema,
  itemIdPathSchema,
  itemListEnvelopeSchema,
  plainItemListEnvelopeSchema,
} from '@sticky/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listEmojiItemIds, listEmojiVariationIds } from '../../catalog/query/emoji.ts';
import { serializeItemsJson } from '../../catalog/query/item-json.ts';
import { AppError } from '../../lib/app-error.ts';
import { giphyErrorResponses } from '../../plugins/error-handler.ts';
import { listEnvelopeJson, okMeta, sendJson } from './envelope.ts';
import { registerGiphyApi } from './giphy-api.ts';

/** `/v1/emoji`: GIPHY's emoji list, our emoji stickers (docs/api.md, "Emoji"). */
export const emojiRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;
  app.get(
    '/emoji',
    {
      schema: {
        summary: 'Emoji stickers',
        querystring: emojiParamsSchema,
        response: { 200: itemListEnvelopeSchema, ...giphyErrorResponses },
      },
    },
    async (request, reply) => {
      const params = request.query;
      const page = await listEmojiItemIds(deps, params);
      const data = await serializeItemsJson(deps, page.rows);
      return sendJson(reply, listEnvelopeJson(data, page.totalCount, params.offset));
    },
  );
};

/** GIPHY's emoji routes under `/v2/emoji`: its v2 pagination, and the skin-tone variations. */
const emojiV2Routes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;
  app.get(
    '/',
    {
      schema: {
        summary: 'Emoji stickers, the default of each (GIPHY v2)',
        querystring: emojiParamsSchema,
        response: { 200: cursorItemListEnvelopeSchema, ...giphyErrorResponses },
      },
    },
    async (request, reply) => {
      const params = request.query;
      const page = await listEmojiItemIds(deps, params);
      const data = await serializeItemsJson(deps, page.rows);
      // GIPHY's next page starts at next_cursor; past the last page it stays where it is.
      const nextCursor = params.offset + data.count;
      const pagination = { count: data.count, offset: params.offset, next_cursor: nextCursor };
      return sendJson(
        reply,
        `{"data":${data.json},"pagination":${JSON.stringify(pagination)},"meta":${JSON.stringify(okMeta())}}`,
      );
    },
  );
  app.get(
    '/:id/variations',
    {
      schema: {
        summary: 'An emoji in each of its skin tones (GIPHY v2)',
        params: itemIdPathSchema,
        response: { 200: plainItemListEnvelopeSchema, ...giphyErrorResponses },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const ids = await listEmojiVariationIds(deps, id);
      if (!ids) throw new AppError('not_found', `No emoji with id ${id}`);
      const data = await serializeItemsJson(deps, ids);
      return sendJson(reply, `{"data":${data.json},"meta":${JSON.stringify(okMeta())}}`);
    },
  );
};

/**
 * `/v2/emoji` is GIPHY's, beside Tenor's `/v2`: its own encapsulated plugin with /v1's
 * envelope, errors and access rule (docs/api.md, "Emoji").
 */
export const giphyEmojiV2Plugin: FastifyPluginAsyncZod = async (app) => {
  await registerGiphyApi(app);
  await app.register(emojiV2Routes);
};
