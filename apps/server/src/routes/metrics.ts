import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { metricsTextSchema } from '@sticky/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../lib/app-error.ts';
import { apiErrorResponses } from '../plugins/error-handler.ts';

/** Headers a proxy adds: a request carrying one came from elsewhere, whatever its socket says. */
const forwardingHeaders = ['forwarded', 'x-forwarded-for', 'x-real-ip'];

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(plain) === 4) return plain.startsWith('127.');
  return plain === '::1';
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/**
 * Whether the request may read the metrics (docs/operations.md, "Metrics"): from this machine
 * (its socket and its TRUST_PROXY-resolved address both loopback, and no proxy's header: a
 * reverse proxy on the same machine would otherwise make every visitor local), or with
 * METRICS_TOKEN as a bearer token, compared as digests in constant time, from anywhere.
 */
function canReadMetrics(request: FastifyRequest, token: string | undefined): boolean {
  const authorization = request.headers.authorization;
  if (token && authorization) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    return match !== null && timingSafeEqual(digest(match[1]!), digest(token));
  }
  return (
    isLoopback(request.socket.remoteAddress) &&
    isLoopback(request.ip) &&
    !forwardingHeaders.some((name) => request.headers[name] !== undefined)
  );
}

/**
 * `GET /metrics` in Prometheus' text format, an encapsulated plugin whose hook guards its own
 * route only. Refused with 403 (not 404): the route is documented, and an operator whose
 * scrape fails should read that it is the address or the token, not a missing route.
 */
export const metricsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config, metrics } = app.deps;
  app.addHook('onRequest', async (request) => {
    if (!canReadMetrics(request, config.metricsToken)) {
      throw new AppError(
        'forbidden',
        config.metricsToken
          ? 'Send METRICS_TOKEN as `Authorization: Bearer <token>` to read the metrics.'
          : 'The metrics are served on this machine’s loopback address only; set METRICS_TOKEN to scrape them from elsewhere.',
      );
    }
  });

  app.get(
    '/metrics',
    {
      // Scrapers name the address they scrape, not PUBLIC_URL's host.
      config: { isAnyHost: true },
      schema: {
        summary: 'Metrics for Prometheus',
        description:
          'Served to requests from loopback, or to any with `Authorization: Bearer <METRICS_TOKEN>`; others get 403.',
        tags: ['health'],
        response: {
          200: {
            description: "Prometheus' text format.",
            content: { 'text/plain; version=0.0.4; charset=utf-8': { schema: metricsTextSchema } },
          },
          ...apiErrorResponses,
        },
      },
    },
    async (_request, reply) => {
      const text = await metrics.render();
      reply.header('cache-control', 'no-store');
      return reply.type(metrics.contentType).send(text);
    },
  );
};
