import type { FastifyPluginAsync } from 'fastify';
import { registerV1Access } from './access.ts';
import { categoryRoutes } from './categories.ts';
import { contentRoutes } from './content.ts';
import { textAnimateRoutes } from './text-animate.ts';

/**
 * GIPHY-compatible API over our catalog (reference §1–§4): GIPHY's paths, parameters and
 * envelopes, so GIPHY's own client works against it with `setServerUrl('<origin>/v1/')`.
 * Errors use GIPHY's `{meta}` envelope (plugins/error-handler.ts).
 */
export const v1Routes: FastifyPluginAsync = async (app) => {
  await registerV1Access(app);
  await app.register(contentRoutes);
  await app.register(categoryRoutes);
  await app.register(textAnimateRoutes);
};
