import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import type { AppConfig } from '../config/env.ts';
import { AppError } from '../lib/app-error.ts';

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
    // Keep in step with HSTS below.
    hsts: config.isHttps ? { maxAge: 63_072_000, includeSubDomains: true, preload: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Same as frame-ancestors 'none', for browsers that only know the older header.
    frameguard: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-site' },
  });
  // A NUL byte is never meaningful in a path or query value, and PostgreSQL refuses it in
  // text: say so with a 400 instead of failing deep inside a query.
  // (Sign-in pages judge their own parameters and answer with a page, not JSON.)
  app.addHook('preValidation', async (request) => {
    const isApi = request.url.startsWith('/v1/') || request.url.startsWith('/api/');
    if (!isApi || request.url.startsWith('/api/auth/')) return;
    if (hasNul(request.params) || hasNul(request.query)) {
      throw new AppError('bad_request', 'Parameters must not contain a NUL character (%00).');
    }
  });

  // On the raw response, like helmet: routes that write it themselves (the OpenID provider)
  // skip onSend hooks but still get these.
  app.addHook('onRequest', async (request, reply) => {
    reply.raw.setHeader('permissions-policy', PERMISSIONS_POLICY);
    // Media is embeddable from other sites on purpose: it is public and immutable, and apps
    // using /v1 with an api_key show it on their own pages.
    if (request.url.startsWith('/media/')) {
      reply.raw.setHeader('cross-origin-resource-policy', 'cross-origin');
    }
  });
});

function hasNul(values: unknown): boolean {
  if (!values || typeof values !== 'object') return false;
  return Object.values(values).some((value) =>
    Array.isArray(value)
      ? value.some((item) => typeof item === 'string' && item.includes('\u0000'))
      : typeof value === 'string' && value.includes('\u0000'),
  );
}

export const PERMISSIONS_POLICY =
  'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()';

const HSTS = 'max-age=63072000; includeSubDomains; preload';

/**
 * The strictest headers, for answers sent before any hook runs (the router's own errors):
 * nothing there is a page, so nothing may load or frame it.
 */
export function setFallbackSecurityHeaders(reply: FastifyReply, config: AppConfig): void {
  reply.header('content-security-policy', "default-src 'none'; frame-ancestors 'none'");
  reply.header('x-content-type-options', 'nosniff');
  reply.header('x-frame-options', 'DENY');
  reply.header('referrer-policy', 'strict-origin-when-cross-origin');
  reply.header('permissions-policy', PERMISSIONS_POLICY);
  reply.header('cross-origin-resource-policy', 'same-site');
  if (config.isHttps) reply.header('strict-transport-security', HSTS);
}
