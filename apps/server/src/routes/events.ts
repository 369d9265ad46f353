import type { ItemEventResponse } from '@sticky/contracts';
import { itemEventRequestSchema } from '@sticky/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { recordItemEvent } from '../catalog/query/trending.ts';
import { AppError } from '../lib/app-error.ts';
import { requireSignedIn } from '../plugins/session.ts';

/**
 * `POST /api/events {type, id}`: a signed-in user viewed, copied or downloaded an item. Each
 * counts towards trending at most once per user, item, type and day.
 */
export const eventsRoutes: FastifyPluginAsync = async (app) => {
  app.post(
    '/',
    {
      preHandler: requireSignedIn,
      config: {
        rateLimit: {
          max: 120,
          timeWindow: '1 minute',
          keyGenerator: (request) => (request.user ? `user:${request.user.id}` : request.ip),
        },
      },
    },
    async (request, reply) => {
      const parsed = itemEventRequestSchema.safeParse(request.body);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new AppError(
          'bad_request',
          `Invalid event: ${issue?.path.join('.') || 'body'}: ${issue?.message}`,
        );
      }
      const { type, id } = parsed.data;
      const result = await recordItemEvent(app.deps, {
        userId: request.user!.id,
        itemId: id,
        kind: type,
      });
      if (!result.isFound) throw new AppError('not_found', `No item with id ${id}`);
      const body: ItemEventResponse = { success: true, counted: result.isCounted };
      return reply.header('cache-control', 'no-store').send(body);
    },
  );
};
