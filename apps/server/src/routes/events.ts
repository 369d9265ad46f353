import { itemEventRequestSchema, itemEventResponseSchema } from '@sticky/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { recordItemEvent } from '../catalog/activity/item-events.ts';
import { AppError } from '../lib/app-error.ts';
import { apiErrorResponses } from '../plugins/error-handler.ts';
import { requireSignedIn, signedInUser } from '../plugins/session.ts';

/**
 * `POST /api/events {type, id}`: a signed-in user viewed, copied or downloaded an item. Each
 * counts towards trending at most once per user, item, type and day.
 */
export const eventsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/',
    {
      onRequest: requireSignedIn,
      config: { rateLimit: { max: 120 } },
      schema: {
        summary: 'Count a view, copy or download of an item towards trending',
        body: itemEventRequestSchema,
        response: { 200: itemEventResponseSchema, ...apiErrorResponses },
      },
    },
    async (request, reply) => {
      const { type, id } = request.body;
      const result = await recordItemEvent(app.deps, {
        userId: signedInUser(request).id,
        itemId: id,
        kind: type,
      });
      if (!result.isFound) throw new AppError('not_found', `No item with id ${id}`);
      return reply
        .header('cache-control', 'no-store')
        .send({ success: true as const, counted: result.isCounted });
    },
  );
};
