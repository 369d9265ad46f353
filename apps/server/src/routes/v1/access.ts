import { createHash, timingSafeEqual } from 'node:crypto';
import cors from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppConfig } from '../../config/env.ts';
import { AppError } from '../../lib/app-error.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The api_key that let this request into /v1 (null for the web app's session). */
    apiKey: string | null;
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

function readApiKey(request: FastifyRequest): string | undefined {
  const value = (request.query as Record<string, unknown> | undefined)?.api_key;
  const key = Array.isArray(value) ? value[0] : value;
  return typeof key === 'string' && key !== '' ? key : undefined;
}

/**
 * Whether `key` is one of STICKY_API_KEYS. Digests compared in constant time, so response
 * timing says nothing about a key; the known keys' digests are made once, with the app.
 */
function makeApiKeyCheck(config: AppConfig): (key: string | undefined) => key is string {
  const known = config.apiKeys.map(digest);
  return (key): key is string => {
    if (!key) return false;
    const candidate = digest(key);
    // Every known key is compared, so how long it takes does not say which one matched.
    let isKnown = false;
    for (const entry of known) isKnown = timingSafeEqual(entry, candidate) || isKnown;
    return isKnown;
  };
}

/**
 * Who may call `/v1`: a signed-in user (session cookie; whatever api_key the SPA sends is
 * ignored), or another app with an api_key from STICKY_API_KEYS. Only the latter gets CORS,
 * and never with credentials, so another site cannot read a signed-in user's answers
 * (docs/api.md, "Who may call /v1"). Call it inside the /v1 plugin, after the session hook.
 */
export async function registerV1Access(app: FastifyInstance): Promise<void> {
  const { config } = app.deps;
  const isKnownApiKey = makeApiKeyCheck(config);
  app.decorateRequest('apiKey', null);
  await app.register(cors, {
    delegator: (request, callback) => {
      callback(
        null,
        isKnownApiKey(readApiKey(request))
          ? { origin: '*', methods: ['GET'], credentials: false, maxAge: 600 }
          : { origin: false },
      );
    },
  });
  app.addHook('onRequest', async (request) => {
    if (request.method === 'OPTIONS') return;
    if (!request.user) {
      const key = readApiKey(request);
      if (!isKnownApiKey(key)) {
        await app.apiLimits.chargeFailedKey(request);
        throw new AppError(
          'unauthorized',
          key ? 'Invalid api_key.' : 'Sign in, or pass an api_key this server knows.',
        );
      }
      request.apiKey = key;
    }
    await app.apiLimits.charge(request);
  });
}
