import { animateParamsSchema } from '@sticky/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { serializeItems } from '../../catalog/query/serialize.ts';
import { animateText } from '../../catalog/text/animate.ts';
import { textStyleIds } from '../../catalog/text/styles.ts';
import { v1RateLimit } from './access.ts';
import { listEnvelope, parseParams } from './envelope.ts';

/**
 * `text/animate?m=<phrase>`: the phrase drawn in every style, one `text` item each
 * (`is_dynamic: 1`). The first request renders and stores them; repeats read them back. New
 * phrases cost CPU, so this path has a tighter rate limit than the rest of /v1.
 */
export const textAnimateRoutes: FastifyPluginAsync = async (app) => {
  const rateLimit = { ...v1RateLimit.rateLimit, max: 30 };

  app.get('/text/animate', { config: { rateLimit } }, async (request) => {
    const params = parseParams(animateParamsSchema, request.query);
    const total = textStyleIds.length;
    // A page past the last style needs no drawing.
    if (params.offset >= total) return listEnvelope([], total, params.offset);
    const rows = await animateText(app.deps, params.m);
    const page = rows.slice(params.offset, params.offset + params.limit);
    return listEnvelope(await serializeItems(app.deps, page), rows.length, params.offset);
  });
};
