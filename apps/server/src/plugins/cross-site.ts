import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes multipart/form-data (file uploads) instead of JSON. */
    isMultipart?: boolean;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return (
    (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined
  );
}

/**
 * Refuses state-changing requests that come from another site, for the plugin that registers
 * it (/api; docs/security.md, "Cross-site rules"). Browsers send Sec-Fetch-Site and Origin on
 * cross-site writes; a request with neither is not from a browser page (curl, server to
 * server) and carries no ambient cookie risk of that kind.
 */
export const crossSitePlugin = fp(async (app: FastifyInstance) => {
  const allowedOrigin = new URL(app.deps.config.publicUrl).origin;
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    // A Bearer token is sent only by code that holds it, never by a browser on its own: no
    // other site can make a request carry it, so where the request comes from does not matter.
    const isTokenRequest = request.authMethod === 'token';
    const fetchSite = request.headers['sec-fetch-site'];
    if (!isTokenRequest && fetchSite && fetchSite !== 'same-origin' && fetchSite !== 'none') {
      throw new AppError('forbidden', 'Cross-site requests are not allowed.');
    }
    const origin = request.headers.origin;
    if (
      !isTokenRequest &&
      origin &&
      origin !== allowedOrigin &&
      origin !== `${request.protocol}://${request.host}`
    ) {
      throw new AppError('forbidden', 'Cross-site requests are not allowed.');
    }
    // The API takes JSON only. Plain-text and form bodies are what a page on another site can
    // send without asking (a "simple" request), so they are refused before being read. Upload
    // routes take multipart forms: the origin checks above are what guards them (and the
    // SameSite session cookie, which a cross-site form post does not carry).
    if (hasBody(request)) {
      const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      const expected = request.routeOptions.config.isMultipart
        ? 'multipart/form-data'
        : 'application/json';
      if (type !== expected) {
        throw new AppError(
          'unsupported_media_type',
          `Send the request body as ${expected === 'application/json' ? 'JSON' : 'a multipart form'} (Content-Type: ${expected}), not ${type || 'without a Content-Type'}.`,
        );
      }
    }
  });
});
