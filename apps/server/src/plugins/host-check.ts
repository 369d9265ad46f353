import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Answers whatever host a request names: probes that reach us by address (health). */
    isAnyHost?: boolean;
    /**
     * A page a person opens inside an API (the sign-in start and callback, the API reference):
     * under another name it is redirected as pages are, not refused.
     */
    isNavigation?: boolean;
  }
  interface FastifyInstance {
    /** Set by `markAsApi` in an API's own plugin: seen by its routes and its not-found answer. */
    isApi?: boolean;
  }
}

/**
 * Call in an API's own encapsulated plugin (`/api`, `/v1`, `/v2`, GIPHY's `/v2/emoji`,
 * `/oembed`): under another host name its requests are refused, never redirected
 * (docs/security.md, "Hosts"). A decorator rather than a route config flag because Fastify's
 * decorators are scoped like the plugin: every route registered inside it and the not-found
 * handler it sets see it through `request.server`, while a not-found handler gets no `onRoute`
 * and no config of its own.
 */
export function markAsApi(app: FastifyInstance): void {
  app.decorate('isApi', true);
}

/**
 * A GET or HEAD outside the APIs: a page, a media file, a sign-in page of the local issuer, or
 * a path that is none of them (the web app's not-found page); or a page inside an API that
 * its route marks as a navigation (`isNavigation`: the sign-in start, the API reference).
 * Redirecting it to PUBLIC_URL is what a person who typed another name meant, whatever their
 * client's Accept header says (curl accepts anything, not `text/html`); a program calling an
 * API gets a clear refusal instead.
 */
function isRedirectable(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  return request.server.isApi !== true || request.routeOptions.config.isNavigation === true;
}

/**
 * Answers only for PUBLIC_URL's host and ALLOWED_HOSTS (docs/security.md, "Hosts"). A GET or
 * HEAD outside the APIs asked for under another name (`127.0.0.1` for `localhost`) is
 * redirected to the same path on PUBLIC_URL, where its cookies and sign-in live; anything else
 * is refused with 421 in the route's API's error shape. That also stops DNS rebinding: a name an
 * attacker points at our address never reaches a route. The host is the one the client named
 * (X-Forwarded-Host only from a trusted proxy, TRUST_PROXY).
 */
export const hostCheckPlugin = fp(async (app: FastifyInstance) => {
  const { allowedHosts, publicUrl } = app.deps.config;
  const allowed = new Set(allowedHosts);
  const origin = new URL(publicUrl).origin;

  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config.isAnyHost) return;
    const hostname = (request.hostname ?? '').toLowerCase();
    if (allowed.has(hostname)) return;
    if (isRedirectable(request)) {
      // 308 keeps the method; the path and query are the client's own, on our origin.
      return reply.redirect(`${origin}${request.url}`, 308);
    }
    throw new AppError('misdirected', `This server answers at ${origin}: send the request there.`);
  });
});
