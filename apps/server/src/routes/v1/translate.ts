import type { ContentFilter } from '@sticky/contracts';
import { singleItemEnvelopeSchema, translateParamsSchema } from '@sticky/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { searchItemIds } from '../../catalog/query/search.ts';
import { serializeItemsJson } from '../../catalog/query/item-json.ts';
import { AppError } from '../../lib/app-error.ts';
import { giphyErrorResponses } from '../../plugins/error-handler.ts';
import { sendJson, singleEnvelopeJson } from './envelope.ts';

/**
 * How far down the ranking `weirdness` reaches: 0 is the best match, 10 the 11th. GIPHY's own
 * choice is its secret; ours is the same answer for the same phrase (docs/api.md, "Translate").
 */
const WEIRDEST_RANK = 10;

/** `gifs/translate` and `stickers/translate`: the one item for a phrase (slash commands). */
export const translateRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;
  for (const segment of ['gifs', 'stickers'] as const satisfies readonly ContentFilter[]) {
    const noun = segment === 'gifs' ? 'GIF' : 'sticker';
    app.get(
      `/${segment}/translate`,
      {
        schema: {
          summary: `The one ${noun} for a phrase`,
          querystring: translateParamsSchema,
          response: { 200: singleItemEnvelopeSchema, ...giphyErrorResponses },
        },
      },
      async (request, reply) => {
        const { s, weirdness, rating } = request.query;
        const page = await searchItemIds(deps, {
          q: s,
          rating,
          sort: 'relevant',
          types: [segment === 'gifs' ? 'gif' : 'sticker'],
          limit: WEIRDEST_RANK + 1,
          offset: 0,
        });
        if (page.rows.length === 0) throw new AppError('not_found', `No ${noun} found for ${s}`);
        const id = page.rows[Math.min(weirdness, page.rows.length - 1)]!;
        const data = await serializeItemsJson(deps, [id]);
        if (data.count === 0) throw new AppError('not_found', `No ${noun} found for ${s}`);
        return sendJson(reply, singleEnvelopeJson(data));
      },
    );
  }
};
