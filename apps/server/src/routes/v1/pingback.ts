import type { PingbackAction } from '@sticky/contracts';
import { pingbackEnvelopeSchema, pingbackParamsSchema } from '@sticky/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { recordItemEvent } from '../../catalog/activity/item-events.ts';
import type { ItemEventKind } from '../../catalog/query/trending.ts';
import { isFromAnotherSite } from '../../catalog/requester.ts';
import { AppError } from '../../lib/app-error.ts';
import { giphyErrorResponses } from '../../plugins/error-handler.ts';
import { singleEnvelope } from './envelope.ts';

/**
 * What each of GIPHY's actions counts as (docs/api.md, "Pingbacks"): a click opens the item
 * (a view), a send shares it (a copy). Being seen in a grid counts nothing: every tile shown
 * would otherwise push trending.
 */
const eventKindByAction: Record<PingbackAction, ItemEventKind | null> = {
  SEEN: null,
  CLICK: 'view',
  SENT: 'copy',
};

/** `pingback_simple`: the URLs of an item's `analytics`, answered for every caller of /v1. */
export const pingbackRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;
  app.get(
    '/pingback_simple',
    {
      schema: {
        summary: 'Report that an item was seen, clicked or sent',
        querystring: pingbackParamsSchema,
        response: { 200: pingbackEnvelopeSchema, ...giphyErrorResponses },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const { gif_id: itemId, action_type: action } = request.query;
      const kind = eventKindByAction[action];
      // Counts are people's: an app's key alone names no one, and another site must not
      // make a signed-in person's browser count for it (docs/security.md).
      const isCrossSite = isFromAnotherSite(request, deps.config);
      if (!kind || !request.user || isCrossSite) return singleEnvelope({ counted: false });
      const result = await recordItemEvent(deps, { userId: request.user.id, itemId, kind });
      if (!result.isFound) throw new AppError('not_found', `No item with id ${itemId}`);
      return singleEnvelope({ counted: result.isCounted });
    },
  );
};
