import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { isContentAddressedPath, mediaContentTypes } from '../catalog/media-paths.ts';
import { AppError } from '../lib/app-error.ts';
import { apiErrorResponses, sendApiError } from '../plugins/error-handler.ts';

const MAX_PATH_LENGTH = 200;

const mediaFile = (description: string) => ({
  description,
  content: Object.fromEntries(
    [...new Set(Object.values(mediaContentTypes))].map((type) => [
      type,
      { schema: z.string().meta({ format: 'binary' }) },
    ]),
  ),
});

/** What the route @fastify/static adds is, for the OpenAPI document. */
const mediaSchema = {
  summary: 'A media file of the catalog',
  description:
    'Public and immutable: the name is the SHA-256 of the content. Ranges, ETag and a year of caching.',
  params: z.object({
    '*': z
      .string()
      .meta({ description: '`ab/cd/<sha256>.<ext>`, as items name their renditions.' }),
  }),
  response: {
    200: mediaFile('The file, typed by its extension.'),
    206: mediaFile('The requested range of the file.'),
    304: z.undefined().describe('Not modified (If-None-Match / If-Modified-Since).'),
    ...apiErrorResponses,
  },
};

/**
 * `/media/ab/cd/<sha256>.<ext>`: the catalog's files, public. Only names that imports create
 * are served (so no traversal, encoded slash, dotfile or staging file can be reached), each
 * with the type its extension names, an ETag, range support and a year of immutable caching:
 * a name's content never changes.
 */
export const mediaRoutes: FastifyPluginAsync = async (app) => {
  const { mediaDir } = app.deps.config;
  fs.mkdirSync(mediaDir, { recursive: true });
  // @fastify/static adds its route hidden from the document: describe it instead.
  app.addHook('onRoute', (route) => {
    route.schema = { ...mediaSchema, tags: ['media'], security: [] } as typeof route.schema;
  });

  app.addHook('onRequest', async (request, reply) => {
    // Embeddable from other sites on purpose: media is public and immutable, and apps using
    // /v1 with an api_key show it on their own pages. On the raw response, like helmet's.
    reply.raw.setHeader('cross-origin-resource-policy', 'cross-origin');
    const rawPath = request.url.split('?')[0]!;
    const relative = rawPath.replace(/^\/media\//, '');
    // Our names never need percent-encoding: anything encoded is not one of them.
    if (
      rawPath.length > MAX_PATH_LENGTH ||
      relative.includes('%') ||
      !isContentAddressedPath(relative)
    ) {
      throw new AppError('not_found', 'No such media file.');
    }
  });

  app.setErrorHandler(async (error: { statusCode?: number; status?: number }, request, reply) => {
    // A range past the end: 416 with the real length, as RFC 9110 asks.
    if ((error.statusCode ?? error.status) === 416) {
      const relative = request.url.split('?')[0]!.replace(/^\/media\//, '');
      const size = (await fs.promises.stat(path.join(mediaDir, relative)).catch(() => undefined))
        ?.size;
      if (size !== undefined) reply.header('content-range', `bytes */${size}`);
    }
    return sendApiError(request, reply, error);
  });
  app.setNotFoundHandler((request, reply) =>
    sendApiError(request, reply, new AppError('not_found', 'No such media file.')),
  );

  await app.register(fastifyStatic, {
    root: mediaDir,
    prefix: '/',
    decorateReply: false,
    index: false,
    dotfiles: 'deny',
    allowedPath: (pathName) => isContentAddressedPath(pathName.replace(/^\//, '')),
    acceptRanges: true,
    etag: true,
    lastModified: true,
    cacheControl: false,
    setHeaders: (reply, filePath) => {
      const extension = path.extname(filePath).slice(1);
      reply.header('content-type', mediaContentTypes[extension] ?? 'application/octet-stream');
      reply.header('cache-control', 'public, max-age=31536000, immutable');
      reply.header('x-content-type-options', 'nosniff');
      // Apps built on GIPHY's SDK embed and fetch these from their own origins.
      reply.header('access-control-allow-origin', '*');
    },
  });
};
