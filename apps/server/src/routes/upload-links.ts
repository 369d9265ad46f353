import { uploadLinkParamsSchema } from '@sticky/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorResponses } from '../plugins/error-handler.ts';
import { resolveUploadLink } from '../uploads/uploads-service.ts';

function renderPage(title: string, text: string, head = ''): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">${head}
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Sticky</title></head>
<body><main><h1>${title}</h1><p>${text}</p></main></body></html>`;
}

/** What a link to a file still processing shows: it asks again every two seconds. */
const processingPage = renderPage(
  'Processing',
  'This upload is being made ready. The page opens it as soon as it is.',
  '<meta http-equiv="refresh" content="2">',
);
const goneHtml = renderPage(
  'Not found',
  'This link leads nowhere: the upload was refused, hidden or deleted.',
);

/**
 * `/u/{uploadId}`: the link an upload answers with (ShareX shares it at once), valid before
 * its item exists: it redirects to the item's page once the upload is ready, shows a page that
 * waits while it is processing, and is 404 when the file was refused, hidden or deleted
 * (docs/uploads.md, "Links").
 */
export const uploadLinkRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/u/:id',
    {
      schema: {
        summary: 'Follow an upload to its item',
        tags: ['uploads'],
        params: uploadLinkParamsSchema,
        response: { 200: z.string(), 302: z.null(), 404: z.string(), ...apiErrorResponses },
      },
    },
    async (request, reply) => {
      const link = await resolveUploadLink(app.deps, request.params.id);
      if (link.state === 'ready') return reply.redirect(link.url, 302);
      if (link.state === 'processing') {
        return reply.header('cache-control', 'no-store').type('text/html').send(processingPage);
      }
      return reply.code(404).type('text/html').send(goneHtml);
    },
  );
};
