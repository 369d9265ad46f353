import { animateParamsSchema, itemListEnvelopeSchema } from '@sticky/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { serializeItems } from '../../catalog/query/serialize.ts';
import { requesterOf } from '../../catalog/requester.ts';
import { animateText } from '../../catalog/text/animate.ts';
import { textStyleIds } from '../../catalog/text/styles.ts';
import { giphyErrorResponses } from '../../plugins/error-handler.ts';
import { listEnvelope } from './envelope.ts';

/**
 * `text/animate?m=<phrase>`: the phrase drawn in every style, one `text` item each
 * (`is_dynamic: 1`). The first request renders and stores them; repeats read them back. New
 * phrases cost CPU, so this path has a tighter rate limit than the rest of /v1.
 */
export const textAnimateRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/text/animate',
    {
      config: { rateLimit: { max: 30 } },
      schema: {
        summary: 'A phrase drawn as animated text, one item per style',
        querystring: animateParamsSchema,
        response: { 200: itemListEnvelopeSchema, ...giphyErrorResponses },
      },
    },
    async (request) => {
      const params = request.query;
      const total = textStyleIds.length;
      // A page past the last style needs no drawing.
      if (params.offset >= total) return listEnvelope([], total, params.offset);
      const rows = await animateText(app.deps, params.m, requesterOf(request, app.deps.config));
      const page = rows.slice(params.offset, params.offset + params.limit);
      return listEnvelope(await serializeItems(app.deps, page), rows.length, params.offset);
    },
  );
};
