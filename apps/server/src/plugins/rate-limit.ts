import { createHash } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { groupAddress } from '../lib/address-group.ts';
import { AppError } from '../lib/app-error.ts';

/** One minute: each route's budget (`config.rateLimit.max`) is per caller and minute. */
export const DEFAULT_RATE_LIMIT_WINDOW_MS = 60_000;

function digestApiKey(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('base64url');
}

/**
 * Who a request counts against in a route's own limit: the signed-in account (a whole office
 * behind one address must not share one budget), else the api_key that let it into /v1 from
 * one address (a key shipped in a web page is used by every visitor: one of them must not use
 * up everyone's budget), else its address, an IPv6 one by its /64 (docs/security.md, "Rate
 * limits and quotas").
 */
export function rateLimitKey(request: FastifyRequest): string {
  if (request.user) return `user:${request.user.id}`;
  const address = groupAddress(request.ip);
  if (request.apiKey) return `key:${digestApiKey(request.apiKey)}|ip:${address}`;
  return `ip:${address}`;
}

/** The whole budget of a caller of /v1 and /v2: the person, else the key, else the address. */
function apiBudgetKey(request: FastifyRequest): string {
  if (request.user) return `user:${request.user.id}`;
  if (request.apiKey) return `key:${digestApiKey(request.apiKey)}`;
  return `ip:${groupAddress(request.ip)}`;
}

/**
 * Rate limits are opt-in per route (`config: { rateLimit: { max } }`) and share the key and
 * window set here (docs/security.md, "Rate limits and quotas"). Tests give a long window so that no
 * budget can renew in the middle of a burst on a slow machine.
 */
export const rateLimitPlugin = fp<{ timeWindowMs?: number }>(
  async (app: FastifyInstance, options) => {
    const timeWindow = options.timeWindowMs ?? DEFAULT_RATE_LIMIT_WINDOW_MS;
    await app.register(rateLimit, { global: false, timeWindow, keyGenerator: rateLimitKey });
    // The APIs other apps call: a budget per caller on every route, and few wrong keys per
    // address, so keys cannot be guessed at leisure (docs/security.md, "Rate limits and quotas").
    // Counters that only count when asked: a route's own tighter limit still runs after them.
    const { apiRateLimitPerMinute, apiRateLimitPerAddressPerMinute } = app.deps.config;
    const perCaller = app.createRateLimit({
      max: apiRateLimitPerMinute,
      timeWindow,
      keyGenerator: apiBudgetKey,
    });
    // A key's requests from one address: that address's share of the key's budget.
    const perKeyAddress = app.createRateLimit({
      max: apiRateLimitPerAddressPerMinute,
      timeWindow,
      keyGenerator: rateLimitKey,
    });
    const failedKeys = app.createRateLimit({
      max: FAILED_KEYS_PER_WINDOW,
      timeWindow,
      keyGenerator: (request) => `failed-key:${groupAddress(request.ip)}`,
    });
    // Edits and deletions together, per person: each moves what every instance keeps, so one
    // script editing in a loop must not keep the caches of all cold (docs/security.md, "Rate
    // limits and quotas"). Admins cleaning up after a flood are not held to it.
    const catalogWrites = app.createRateLimit({
      max: CATALOG_WRITES_PER_WINDOW,
      timeWindow,
      keyGenerator: (request) => `catalog-writes:${rateLimitKey(request)}`,
    });
    app.decorate('catalogWriteLimit', {
      async charge(request: FastifyRequest) {
        if (request.user?.isAdmin) return;
        const result = await catalogWrites(request);
        if (!result.isAllowed && result.isExceeded) {
          throw new AppError(
            'rate_limited',
            `Too many changes to items: at most ${CATALOG_WRITES_PER_WINDOW} edits and deletions a minute. Try again in a minute.`,
          );
        }
      },
    });
    app.decorate('apiLimits', {
      async charge(request: FastifyRequest) {
        if (!request.user && request.apiKey) {
          const result = await perKeyAddress(request);
          if (!result.isAllowed && result.isExceeded) {
            throw new AppError(
              'rate_limited',
              `Too many requests from this address: at most ${apiRateLimitPerAddressPerMinute} a minute with this key. Try again in a minute.`,
            );
          }
        }
        const result = await perCaller(request);
        if (!result.isAllowed && result.isExceeded) {
          throw new AppError(
            'rate_limited',
            `Too many requests: at most ${apiRateLimitPerMinute} a minute. Try again in a minute.`,
          );
        }
      },
      async chargeFailedKey(request: FastifyRequest) {
        const result = await failedKeys(request);
        if (!result.isAllowed && result.isExceeded) {
          throw new AppError(
            'rate_limited',
            'Too many requests without a valid key from this address. Try again in a minute.',
          );
        }
      },
    });
  },
);

/** Edits and deletions of items one person may make per window (admins: no limit). */
export const CATALOG_WRITES_PER_WINDOW = 30;

/** Wrong or missing keys one address may send per window before it is refused outright. */
export const FAILED_KEYS_PER_WINDOW = 30;

declare module 'fastify' {
  interface FastifyInstance {
    /** Edits and deletions of items, per person (plugins/rate-limit.ts); 429 past it. */
    catalogWriteLimit: { charge(request: FastifyRequest): Promise<void> };
    /** Budgets of /v1 and /v2 (plugins/rate-limit.ts). */
    apiLimits: {
      /**
       * One request of this caller (person, key or address) and, for a key, of the key from
       * this address; 429 past either budget.
       */
      charge(request: FastifyRequest): Promise<void>;
      /** One request without a valid key from this address; 429 past the budget. */
      chargeFailedKey(request: FastifyRequest): Promise<void>;
    };
  }
}
