import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** The label of a request no route matched: one series, whatever URLs people try. */
const unmatchedRoute = '(unmatched)';

/**
 * Counts and times every answered request in the app's metrics (docs/operations.md, "Metrics")
 * under its route pattern (`/v1/gifs/:id`), never its URL: URLs carry ids and queries, and a
 * label per URL would grow without bound.
 */
export const httpMetricsPlugin = fp(async (app: FastifyInstance) => {
  const { metrics } = app.deps;
  app.addHook('onResponse', async (request, reply) => {
    metrics.observeRequest(
      {
        method: request.method,
        route: request.routeOptions.url ?? unmatchedRoute,
        status: reply.statusCode,
      },
      reply.elapsedTime / 1000,
    );
  });
});
