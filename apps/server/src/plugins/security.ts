import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppConfig } from '../config/env.ts';

/** GIPHY's hosts, allowed only in GIPHY mode, where the browser talks to GIPHY directly. */
function giphyOrigins(config: AppConfig): { api: string[]; media: string[] } {
  if (!config.giphy) return { api: [], media: [] };
  const api = new URL(config.giphy.apiUrl).origin;
  const isRealGiphy = api === 'https://api.giphy.com';
  return {
    api: [api],
    media: isRealGiphy ? ['https://*.giphy.com'] : [api],
  };
}

export function buildContentSecurityPolicy(config: AppConfig) {
  const giphy = giphyOrigins(config);
  const analytics = config.analyticsScriptUrl ? [new URL(config.analyticsScriptUrl).origin] : [];
  return {
    defaultSrc: ["'self'"],
    baseUri: ["'self'"],
    objectSrc: ["'none'"],
    frameAncestors: ["'none'"],
    formAction: ["'self'"],
    scriptSrc: ["'self'", ...analytics],
    // react-hot-toast injects its keyframes as a <style> element at run time.
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:', ...giphy.media],
    mediaSrc: ["'self'", 'blob:', ...giphy.media],
    connectSrc: ["'self'", ...giphy.api, ...giphy.media, ...analytics],
    fontSrc: ["'self'"],
    upgradeInsecureRequests: config.isHttps ? [] : null,
  };
}

export const securityPlugin = fp(async (app: FastifyInstance) => {
  const { config } = app.deps;
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: buildContentSecurityPolicy(config) },
    hsts: config.isHttps ? { maxAge: 63_072_000, includeSubDomains: true, preload: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
    // Media is embeddable from other sites on purpose (it is public and immutable).
    crossOriginResourcePolicy: { policy: 'same-site' },
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.header(
      'permissions-policy',
      'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()',
    );
  });
});
