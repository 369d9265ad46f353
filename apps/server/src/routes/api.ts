import type { FastifyPluginAsync } from 'fastify';
import { crossSitePlugin } from '../plugins/cross-site.ts';
import { answerErrorsAsApi } from '../plugins/error-handler.ts';
import { markAsApi } from '../plugins/host-check.ts';
import { nulParametersPlugin } from '../plugins/nul-parameters.ts';
import { apiDocsRoutes, documentRoutesAs } from '../plugins/openapi.ts';
import { sessionUserPlugin } from '../plugins/session.ts';
import { adminOverviewRoutes } from './admin-overview.ts';
import { analyticsRoutes } from './analytics.ts';
import { authRoutes } from './auth.ts';
import { configRoutes } from './config.ts';
import { eventsRoutes } from './events.ts';
import { favoritesRoutes } from './favorites.ts';
import { integrationsAdminRoutes } from './integrations.ts';
import { itemsRoutes } from './items.ts';
import { categoriesRoutes, moderationRoutes, reportsRoutes } from './moderation.ts';
import { sharedLinksRoutes } from './shared-links.ts';
import { tokensRoutes } from './tokens.ts';
import { uploadsRoutes } from './uploads.ts';

/**
 * `/api`: what the web app uses (docs/api.md, "/api"). An encapsulated plugin: the session,
 * the cross-site write rule, the NUL check and the `{success: false, error}` answers apply to
 * its routes and unknown paths only. The sign-in navigations under /api/auth answer with
 * pages instead (routes/auth.ts).
 */
export const apiPlugin: FastifyPluginAsync = async (app) => {
  answerErrorsAsApi(app);
  markAsApi(app);
  documentRoutesAs(app, 'api');
  await app.register(sessionUserPlugin);
  await app.register(crossSitePlugin);
  await app.register(nulParametersPlugin);

  await app.register(apiDocsRoutes, { prefix: '/docs' });
  await app.register(authRoutes, { prefix: '/auth' });
  await app.register(favoritesRoutes, { prefix: '/favorites' });
  await app.register(configRoutes, { prefix: '/config' });
  await app.register(analyticsRoutes, { prefix: '/analytics' });
  await app.register(eventsRoutes, { prefix: '/events' });
  await app.register(uploadsRoutes);
  await app.register(itemsRoutes, { prefix: '/items' });
  await app.register(reportsRoutes, { prefix: '/items' });
  await app.register(categoriesRoutes, { prefix: '/categories' });
  await app.register(moderationRoutes, { prefix: '/admin' });
  await app.register(integrationsAdminRoutes, { prefix: '/admin/integrations' });
  await app.register(adminOverviewRoutes, { prefix: '/admin' });
  await app.register(tokensRoutes, { prefix: '/tokens' });
  await app.register(sharedLinksRoutes);
};
