import { oembedQuerySchema, oembedResponseSchema } from '@sticky/contracts';
import type { OembedResponse } from '@sticky/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../lib/app-error.ts';
import { apiErrorResponses } from '../plugins/error-handler.ts';
import { markAsApi } from '../plugins/host-check.ts';
import { sessionUserPlugin } from '../plugins/session.ts';
import { arePreviewsPublic, loadItemPreview, parseItemPath } from '../unfurl/item-preview.ts';
import type { PreviewMedia } from '../unfurl/item-preview.ts';

/** How long a consumer may keep an answer: items rarely change once made. */
const CACHE_AGE_SECONDS = 3600;

/** The largest size within the bounds, else the smallest there is. */
function fitWithin(sizes: readonly PreviewMedia[], maxWidth?: number, maxHeight?: number) {
  const fits = sizes.filter(
    (media) =>
      (maxWidth === undefined || media.width <= maxWidth) &&
      (maxHeight === undefined || media.height <= maxHeight),
  );
  return fits[0] ?? sizes[sizes.length - 1];
}

/**
 * `GET /oembed`: Mastodon, Matrix and others ask it, found through the item page's discovery
 * link, for a Sticky link's GIF (docs/api.md, "Link previews"). Only our own item pages are
 * answered; a private instance (PUBLIC_PREVIEWS off) answers only its signed-in people.
 */
export const oembedRoutes: FastifyPluginAsyncZod = async (app) => {
  // Its consumers are servers asking for JSON: an API, refused under another name.
  markAsApi(app);
  await app.register(sessionUserPlugin, { defaultTokenScope: 'read' });
  const { config } = app.deps;
  const ownOrigin = new URL(config.publicUrl).origin;

  app.get(
    '/oembed',
    {
      schema: {
        summary: 'The oEmbed answer for an item page of this Sticky',
        tags: ['previews'],
        querystring: oembedQuerySchema,
        response: { 200: oembedResponseSchema, ...apiErrorResponses },
      },
    },
    async (request, reply): Promise<OembedResponse> => {
      const { url, format, maxwidth, maxheight } = request.query;
      if (format !== 'json') {
        throw new AppError('not_implemented', 'Only format=json is served.');
      }
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        throw new AppError('not_found', 'The url is not a link to an item of this Sticky.');
      }
      const path = target.origin === ownOrigin ? parseItemPath(target.pathname) : null;
      if (!path)
        throw new AppError('not_found', 'The url is not a link to an item of this Sticky.');
      if (!arePreviewsPublic(config) && !request.user) {
        throw new AppError('unauthorized', 'This Sticky shows its items to signed-in people only.');
      }
      const preview = config.giphy ? null : await loadItemPreview(app.deps, path);
      if (!preview) throw new AppError('not_found', 'There is no such item.');
      const media = fitWithin(preview.sizes, maxwidth, maxheight) ?? preview.image;
      reply.header(
        'cache-control',
        arePreviewsPublic(config) ? `public, max-age=${CACHE_AGE_SECONDS}` : 'private, no-store',
      );
      return {
        version: '1.0',
        type: 'photo',
        title: preview.title,
        url: media.url,
        width: media.width,
        height: media.height,
        provider_name: 'Sticky',
        provider_url: config.publicUrl,
        ...(preview.authorName ? { author_name: preview.authorName } : {}),
        ...(preview.authorUrl ? { author_url: preview.authorUrl } : {}),
        cache_age: CACHE_AGE_SECONDS,
      };
    },
  );
};
