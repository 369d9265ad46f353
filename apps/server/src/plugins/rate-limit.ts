import { createHash } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/** One minute: each route's budget (`config.rateLimit.max`) is per caller and minute. */
export const DEFAULT_RATE_LIMIT_WINDOW_MS = 60_000;

/**
 * Who a request counts against: the signed-in account (a whole office behind one address
 * must not share one budget), else the api_key that let it into /v1, else its address.
 */
export function rateLimitKey(request: FastifyRequest): string {
  if (request.user) return `user:${request.user.id}`;
  if (request.apiKey) {
    return `key:${createHash('sha256').update(request.apiKey).digest('base64url')}`;
  }
  return `ip:${request.ip}`;
}

/**
 * Rate limits are opt-in per route (`config: { rateLimit: { max } }`) and share the key and
 * window set here (docs/security.md, "Rate limits and quotas"). Tests give a long window so that no
 * budget can renew in the middle of a burst on a slow machine.
 */
export const rateLimitPlugin = fp<{ timeWindowMs?: number }>(
  async (app: FastifyInstance, options) => {
    await app.register(rateLimit, {
      global: false,
      timeWindow: options.timeWindowMs ?? DEFAULT_RATE_LIMIT_WINDOW_MS,
      keyGenerator: rateLimitKey,
    });
  },
);
