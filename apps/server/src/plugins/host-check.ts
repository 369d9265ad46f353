import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Answers whatever host a request names: probes that reach us by address (health). */
    isAnyHost?: boolean;
  }
}

/** A navigation: the browser wants a page, and a redirect lands the person where they meant. */
function isPageRequest(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const accept = request.headers.accept ?? '';
  return accept.includes('text/html') || request.headers['sec-fetch-mode'] === 'navigate';
}

/**
 * Answers only for PUBLIC_URL's host and ALLOWED_HOSTS (docs/security.md, "Hosts"). A page asked
 * for under another name (`127.0.0.1` for `localhost`) is redirected to the same path on
 * PUBLIC_URL, where its cookies and sign-in live; anything else is refused with 421 in the
 * route's API's error shape. That also stops DNS rebinding: a name an attacker points at our
 * address never reaches a route. The host is the one the client named (X-Forwarded-Host only
 * from a trusted proxy, TRUST_PROXY).
 */
export const hostCheckPlugin = fp(async (app: FastifyInstance) => {
  const { allowedHosts, publicUrl } = app.deps.config;
  const allowed = new Set(allowedHosts);
  const origin = new URL(publicUrl).origin;

  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config.isAnyHost) return;
    const hostname = (request.hostname ?? '').toLowerCase();
    if (allowed.has(hostname)) return;
    if (isPageRequest(request)) {
      // 308 keeps the method; the path and query are the client's own, on our origin.
      return reply.redirect(`${origin}${request.url}`, 308);
    }
    throw new AppError('misdirected', `This server answers at ${origin}: send the request there.`);
  });
});
