import helmet from 'helmet';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import type { AppConfig } from '../config/env.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A stored file (an image or a video), never a page: it gets the headers a file needs, not
     * the baseline's page-only ones (docs/security.md, "Headers").
     */
    isStoredFile?: boolean;
  }
}

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
  // Media served from a CDN or a public bucket (MEDIA_PUBLIC_URL) shows, and is downloaded.
  const media = config.mediaPublicUrl ? [new URL(config.mediaPublicUrl).origin] : [];
  return {
    defaultSrc: ["'self'"],
    baseUri: ["'self'"],
    objectSrc: ["'none'"],
    frameAncestors: ["'none'"],
    formAction: ["'self'"],
    scriptSrc: ["'self'", ...analytics],
    // react-hot-toast injects its keyframes as a <style> element at run time.
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:', ...giphy.media, ...media],
    mediaSrc: ["'self'", 'blob:', ...giphy.media, ...media],
    connectSrc: ["'self'", ...giphy.api, ...giphy.media, ...media, ...analytics],
    fontSrc: ["'self'"],
    upgradeInsecureRequests: config.isHttps ? [] : null,
  };
}

/** Two years, subdomains, preload-list ready: the one HSTS policy of every https answer. */
const HSTS = { maxAge: 63_072_000, includeSubDomains: true, preload: true } as const;
export const HSTS_HEADER = `max-age=${HSTS.maxAge}; includeSubDomains; preload`;

export const PERMISSIONS_POLICY =
  'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()';

/**
 * What a stored file is answered with instead of the baseline (docs/security.md, "Headers"):
 * opened on its own, it is a sandboxed document that may load nothing and be framed by no one;
 * embedded, it may be by any site (the files are public and immutable, and apps using /v1 show
 * them on their own pages). The page-only headers (the page CSP, Permissions-Policy, COOP,
 * Referrer-Policy and the rest of helmet's) govern documents and what they load, which an image
 * or a video does neither of; sent with each of a grid's files they were about 600 bytes a
 * file, more than many a tile.
 */
function setStoredFileHeaders(reply: FastifyReply, config: AppConfig): void {
  reply.raw.setHeader(
    'content-security-policy',
    "default-src 'none'; frame-ancestors 'none'; sandbox",
  );
  reply.raw.setHeader('x-content-type-options', 'nosniff');
  reply.raw.setHeader('cross-origin-resource-policy', 'cross-origin');
  if (config.isHttps) reply.raw.setHeader('strict-transport-security', HSTS_HEADER);
}

/**
 * The baseline headers of every answer (docs/security.md, "Headers"). Helmet's middleware is
 * built once, with the app: @fastify/helmet built it, and parsed the CSP, on every request
 * (about a tenth of a kept trending answer's CPU). On the raw response, so routes that write it
 * themselves (the OpenID provider) skip onSend hooks but still get them. A route that serves
 * stored files says so in its config (`isStoredFile`) and gets a file's headers instead.
 */
export const securityHeadersPlugin = fp(async (app: FastifyInstance) => {
  const { config } = app.deps;
  const applyHeaders = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: buildContentSecurityPolicy(config) },
    strictTransportSecurity: config.isHttps ? HSTS : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Same as frame-ancestors 'none', for browsers that only know the older header.
    xFrameOptions: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-site' },
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (request.routeOptions.config.isStoredFile) {
      setStoredFileHeaders(reply, config);
      done();
      return;
    }
    reply.raw.setHeader('permissions-policy', PERMISSIONS_POLICY);
    applyHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined));
  });
});

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
  if (config.isHttps) reply.header('strict-transport-security', HSTS_HEADER);
}
