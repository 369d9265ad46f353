import type { FastifyPluginAsync } from 'fastify';
import { categoryRoutes } from './categories.ts';
import { contentRoutes } from './content.ts';
import { discoveryRoutes } from './discovery.ts';
import { emojiRoutes } from './emoji.ts';
import { registerGiphyApi } from './giphy-api.ts';
import { pingbackRoutes } from './pingback.ts';
import { textAnimateRoutes } from './text-animate.ts';
import { translateRoutes } from './translate.ts';

/**
 * GIPHY-compatible API over our catalog (docs/api.md, "/v1"): GIPHY's paths, parameters and
 * envelopes, so GIPHY's own client works against it with `setServerUrl('<origin>/v1/')`.
 * An encapsulated plugin: its hooks (session, who may call, NUL check) and its error and
 * not-found answers in GIPHY's `{meta}` envelope apply to its routes only.
 */
export const v1Plugin: FastifyPluginAsync = async (app) => {
  await registerGiphyApi(app);
  await app.register(contentRoutes);
  await app.register(categoryRoutes);
  await app.register(textAnimateRoutes);
  await app.register(translateRoutes);
  await app.register(emojiRoutes);
  await app.register(discoveryRoutes);
  await app.register(pingbackRoutes);
};
