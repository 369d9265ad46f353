import cookie from '@fastify/cookie';
import type { SessionUser } from '@sticky/contracts';
import Fastify, { LogController } from 'fastify';
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { localIssuerRoutes } from './auth/local-issuer.ts';
import { integrationsPlugin } from './integrations/integrations-plugin.ts';
import { registerCompression } from './plugins/compression.ts';
import { answerErrorsAsApi, handleFrameworkError } from './plugins/error-handler.ts';
import type { ErrorBodiesByPrefix } from './plugins/error-handler.ts';
import { hostCheckPlugin } from './plugins/host-check.ts';
import { httpMetricsPlugin } from './plugins/http-metrics.ts';
import { openApiPlugin } from './plugins/openapi.ts';
import { rateLimitPlugin } from './plugins/rate-limit.ts';
import { requestLogPlugin } from './plugins/request-log.ts';
import { routeInventoryPlugin } from './plugins/route-inventory.ts';
import { securityHeadersPlugin } from './plugins/security-headers.ts';
import { sessionsPlugin } from './plugins/session.ts';
import { apiPlugin } from './routes/api.ts';
import { healthRoutes } from './routes/health.ts';
import { mediaRoutes } from './routes/media.ts';
import { metricsRoutes } from './routes/metrics.ts';
import { oembedRoutes } from './routes/oembed.ts';
import { uploadLinkRoutes } from './routes/upload-links.ts';
import { giphyEmojiV2Plugin } from './routes/v1/emoji.ts';
import { spaRoutes } from './routes/spa.ts';
import { v1Plugin } from './routes/v1/index.ts';
import { v2Plugin } from './routes/v2/index.ts';
import { createAppServices } from './services/app-services.ts';
import type { AppDeps, AppDepsInput } from './services/app-services.ts';

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
    errorBodiesByPrefix: ErrorBodiesByPrefix;
  }
  interface FastifyRequest {
    /** The signed-in user: resolved from the session cookie by the APIs (plugins/session.ts). */
    user: SessionUser | null;
  }
}

export interface BuildAppOptions {
  logger?: FastifyServerOptions['logger'] | FastifyBaseLogger;
  webDistDir?: string;
  /** Creates the HTTP server (tests: one already listening on a port the system chose). */
  serverFactory?: FastifyServerOptions['serverFactory'];
  /** The rate limits' window (one minute unless a test needs a longer one). */
  rateLimitWindowMs?: number;
  /** The level of the one line per request (`info` unless the logs go to a terminal). */
  requestLogLevel?: 'info' | 'debug';
}

/** TRUST_PROXY as a hop count: the nearest `hops` proxies in front of us are believed. */
function trustHops(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}

/**
 * The composition root (docs/architecture.md, "Request flow"): server-wide plugins first,
 * then each API as an encapsulated plugin with its own hooks and error answers, then media,
 * the local sign-in issuer and the web app.
 */
export async function buildApp(deps: AppDepsInput, options: BuildAppOptions = {}) {
  const loggerOption =
    options.logger && typeof (options.logger as FastifyBaseLogger).child === 'function'
      ? { loggerInstance: options.logger as FastifyBaseLogger }
      : { logger: (options.logger as FastifyServerOptions['logger']) ?? false };
  const app = Fastify({
    ...loggerOption,
    // Logged in one line per request instead (plugins/request-log.ts).
    logController: new LogController({ disableRequestLogging: true }),
    ...(options.serverFactory ? { serverFactory: options.serverFactory } : {}),
    // Only the proxies the operator names may set the client's address (docs/security.md).
    trustProxy:
      typeof deps.config.trustProxy === 'number'
        ? trustHops(deps.config.trustProxy)
        : deps.config.trustProxy,
    bodyLimit: 64 * 1024,
    // Requests that stall must not hold a connection forever.
    requestTimeout: 30_000,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // Bad %-escapes and over-long path parameters: our envelope, not Fastify's bare one.
    frameworkErrors: handleFrameworkError,
  }).withTypeProvider<ZodTypeProvider>();
  // Services per app (docs/architecture.md, "Services per app"), closed with it.
  const services = createAppServices(deps, app.log);
  app.decorate('deps', services.deps);
  app.decorate('errorBodiesByPrefix', new Map() as ErrorBodiesByPrefix);
  app.addHook('onClose', services.close);
  // The Telegram bot polls once the app is complete (docs/integrations.md, "Telegram").
  app.addHook('onReady', async () => services.deps.telegram.start());
  // One declaration per route validates, types, serializes and documents (docs/api.md).
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Errors outside the APIs (health, the web app): /api's envelope.
  answerErrorsAsApi(app, { isNotFoundToo: false });

  await app.register(requestLogPlugin, { level: options.requestLogLevel ?? 'info' });
  await app.register(httpMetricsPlugin);
  await app.register(routeInventoryPlugin);
  await app.register(hostCheckPlugin);
  await app.register(openApiPlugin);
  await app.register(securityHeadersPlugin);
  await registerCompression(app);
  await app.register(cookie, { secret: deps.sessionSecret });
  await app.register(rateLimitPlugin, { timeWindowMs: options.rateLimitWindowMs });
  await app.register(sessionsPlugin);

  await app.register(healthRoutes);
  await app.register(metricsRoutes);
  await app.register(apiPlugin, { prefix: '/api' });
  await app.register(v1Plugin, { prefix: '/v1' });
  await app.register(v2Plugin, { prefix: '/v2' });
  // GIPHY's emoji live under /v2 too, beside Tenor's API (docs/api.md, "Emoji").
  await app.register(giphyEmojiV2Plugin, { prefix: '/v2/emoji' });
  await app.register(mediaRoutes, { prefix: '/media' });
  await app.register(localIssuerRoutes, { prefix: '/oidc' });
  // Chat platforms' commands and buttons, each only when configured (docs/integrations.md).
  await app.register(integrationsPlugin(services.deps), { prefix: '/integrations' });
  await app.register(oembedRoutes);
  await app.register(uploadLinkRoutes);
  await app.register(spaRoutes, { distDir: options.webDistDir });

  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
