import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import type { SessionUser } from '@sticky/contracts';
import Fastify from 'fastify';
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import { localIssuerRoutes } from './auth/local-issuer.ts';
import type { AppConfig } from './config/env.ts';
import type { DatabaseHandle } from './db/client.ts';
import { crossSitePlugin } from './plugins/cross-site.ts';
import { errorHandlerPlugin, handleFrameworkError } from './plugins/error-handler.ts';
import { securityPlugin } from './plugins/security.ts';
import { sessionPlugin } from './plugins/session.ts';
import { analyticsRoutes } from './routes/analytics.ts';
import { authRoutes } from './routes/auth.ts';
import { configRoutes } from './routes/config.ts';
import { eventsRoutes } from './routes/events.ts';
import { favoritesRoutes } from './routes/favorites.ts';
import { healthRoutes } from './routes/health.ts';
import { mediaRoutes } from './routes/media.ts';
import { spaRoutes } from './routes/spa.ts';
import { v1Routes } from './routes/v1/index.ts';

/** What /readyz says about the starter catalog (seeded behind the running server). */
export interface CatalogState {
  starter: 'off' | 'seeding' | 'ready' | 'failed';
}

export interface AppDeps {
  config: AppConfig;
  database: DatabaseHandle;
  catalog?: CatalogState;
  /** Signs short-lived cookies (the sign-in flow); never the session token itself. */
  sessionSecret: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
  interface FastifyRequest {
    /** The signed-in user, resolved from the session cookie by plugins/session.ts. */
    user: SessionUser | null;
  }
}

export interface BuildAppOptions {
  logger?: FastifyServerOptions['logger'] | FastifyBaseLogger;
  webDistDir?: string;
}

export async function buildApp(deps: AppDeps, options: BuildAppOptions = {}) {
  const loggerOption =
    options.logger && typeof (options.logger as FastifyBaseLogger).child === 'function'
      ? { loggerInstance: options.logger as FastifyBaseLogger }
      : { logger: (options.logger as FastifyServerOptions['logger']) ?? false };
  const app = Fastify({
    ...loggerOption,
    trustProxy: deps.config.isProduction,
    bodyLimit: 64 * 1024,
    // Requests that stall must not hold a connection forever.
    requestTimeout: 30_000,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // Bad %-escapes and over-long path parameters: our envelope, not Fastify's bare one.
    frameworkErrors: handleFrameworkError,
  });
  app.decorate('deps', deps);

  await app.register(errorHandlerPlugin);
  await app.register(securityPlugin);
  // Text answers (the SPA's scripts above all) go out compressed to clients that accept it.
  await app.register(compress, { encodings: ['br', 'gzip'] });
  await app.register(cookie, { secret: deps.sessionSecret });
  await app.register(rateLimit, { global: false });
  await app.register(crossSitePlugin);
  await app.register(sessionPlugin);

  await app.register(healthRoutes);
  await app.register(authRoutes, { prefix: '/api/auth' });
  await app.register(localIssuerRoutes, { prefix: '/oidc' });
  await app.register(favoritesRoutes, { prefix: '/api/favorites' });
  await app.register(configRoutes, { prefix: '/api/config' });
  await app.register(analyticsRoutes, { prefix: '/api/analytics' });
  await app.register(eventsRoutes, { prefix: '/api/events' });
  await app.register(v1Routes, { prefix: '/v1' });
  await app.register(mediaRoutes, { prefix: '/media' });
  await app.register(spaRoutes, { distDir: options.webDistDir });

  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
