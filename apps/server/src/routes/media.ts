import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';
import { isContentAddressedPath, mediaContentTypes } from '../catalog/media-paths.ts';
import { AppError } from '../lib/app-error.ts';

const MAX_PATH_LENGTH = 200;

/**
 * `/media/ab/cd/<sha256>.<ext>`: the catalog's files, public. Only names that imports create
 * are served (so no traversal, encoded slash, dotfile or staging file can be reached), each
 * with the type its extension names, an ETag, range support and a year of immutable caching:
 * a name's content never changes.
 */
export const mediaRoutes: FastifyPluginAsync = async (app) => {
  const { mediaDir } = app.deps.config;
  fs.mkdirSync(mediaDir, { recursive: true });

  app.addHook('onRequest', async (request) => {
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

  // A range past the end: 416 with the real length, as RFC 9110 asks (the app-wide handler
  // would turn it into a plain 400).
  app.setErrorHandler(async (error: { statusCode?: number; status?: number }, request, reply) => {
    if ((error.statusCode ?? error.status) !== 416) throw error;
    const relative = request.url.split('?')[0]!.replace(/^\/media\//, '');
    const size = (await fs.promises.stat(path.join(mediaDir, relative)).catch(() => undefined))
      ?.size;
    if (size !== undefined) reply.header('content-range', `bytes */${size}`);
    return reply.code(416).send({
      success: false,
      error: { code: 'range_not_satisfiable', message: 'The requested range is outside the file.' },
    });
  });

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
      reply.header('cross-origin-resource-policy', 'cross-origin');
      reply.header('access-control-allow-origin', '*');
    },
  });
};
