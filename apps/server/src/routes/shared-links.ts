import {
  sharedItemParamsSchema,
  sharedItemResponseSchema,
  uploadLinkParamsSchema,
  uploadLinkStateResponseSchema,
} from '@sticky/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { loadSharedItem, readUploadLinkState } from '../items/shared-item.ts';
import { apiErrorResponses } from '../plugins/error-handler.ts';

/**
 * What a shared link's pages ask, signed in or not (docs/uploads.md, "Links"): where an
 * upload's `/u/{id}` stands, and, with PUBLIC_LINKS, a public or unlisted item itself.
 */
export const sharedLinksRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.get(
    '/links/:id',
    {
      schema: {
        summary: "Where an upload's link stands",
        description:
          'Processing, or ready with its item page; 404 when the upload was refused, hidden or deleted.',
        tags: ['uploads'],
        params: uploadLinkParamsSchema,
        response: { 200: uploadLinkStateResponseSchema, ...apiErrorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await readUploadLinkState(app.deps, request.params.id)),
    }),
  );

  app.get(
    '/shared/:id',
    {
      schema: {
        summary: 'A shared item, for people who are not signed in (PUBLIC_LINKS)',
        description:
          'A public or unlisted item when the server runs with PUBLIC_LINKS=true; 404 otherwise, and always for private or hidden items.',
        tags: ['uploads'],
        params: sharedItemParamsSchema,
        response: { 200: sharedItemResponseSchema, ...apiErrorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      item: await loadSharedItem(app.deps, request.params.id),
    }),
  );
};
