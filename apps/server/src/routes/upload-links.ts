import { uploadLinkParamsSchema } from '@sticky/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import { apiErrorResponses } from '../plugins/error-handler.ts';
import { resolveUploadLink } from '../uploads/uploads-service.ts';

/** How long a crawler's request for a link still processing is held (docs/uploads.md, "Links"). */
const crawlerHoldMs = 5000;
const crawlerPollMs = 250;

/** Chat apps' and search engines' fetchers, which run no JavaScript. */
const crawlerAgent =
  /bot\b|crawler|spider|facebookexternalhit|slack|discord|telegram|whatsapp|twitter|embedly|mastodon|matrix|skype|linkedin|iframely|preview/i;

/** A person's browser (it asks for HTML and is no known fetcher): the app's pages are for it. */
function isBrowser(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return accept.includes('text/html') && !crawlerAgent.test(request.headers['user-agent'] ?? '');
}

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
 * its item exists: it redirects to the item's page once the upload is ready, and is 404 when
 * the file was refused, hidden or deleted (docs/uploads.md, "Links"). While it is processing a
 * browser gets the app, whose page waits on it (`/api/links/{id}`); a crawler is held a few
 * seconds for the item (made with its first renditions), then sent to it or told to come back.
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
      let link = await resolveUploadLink(app.deps, request.params.id);
      if (link.state === 'processing' && isBrowser(request)) return reply.callNotFound();
      const giveUpAt = Date.now() + crawlerHoldMs;
      while (link.state === 'processing' && Date.now() < giveUpAt) {
        await new Promise((resolve) => setTimeout(resolve, crawlerPollMs));
        link = await resolveUploadLink(app.deps, request.params.id);
      }
      if (link.state === 'ready') return reply.redirect(link.url, 302);
      if (link.state === 'processing') {
        return reply.header('cache-control', 'no-store').type('text/html').send(processingPage);
      }
      return reply.code(404).type('text/html').send(goneHtml);
    },
  );
};
