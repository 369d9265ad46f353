import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import {
  contentHashOf,
  isContentAddressedPath,
  mediaContentTypes,
} from '../storage/media-paths.ts';
import { findSessionUser, sessionCookieName } from '../auth/sessions.ts';
import { canSeeHiddenFile, createHiddenMedia } from '../items/hidden-media.ts';
import { AppError } from '../lib/app-error.ts';
import type { MediaStore } from '../storage/media-store.ts';
import { apiErrorResponses, sendApiError } from '../plugins/error-handler.ts';
import { DEFAULT_RATE_LIMIT_WINDOW_MS, rateLimitKey } from '../plugins/rate-limit.ts';

const MAX_PATH_LENGTH = 200;

/** How long a name the bucket does not have is answered 404 without asking it again. */
export const MEDIA_MISS_KEPT_MS = 30_000;
/** Names the bucket does not have one caller may ask for per minute: a page never misses. */
export const MEDIA_MISSES_PER_MINUTE = 120;

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
    'Public and immutable: the name is the SHA-256 of the content. Ranges, ETag and a year of caching. A file only hidden or private items use is 404 but to admins and its owners (`private, no-store`).',
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

/** What a file only hidden or private items use is answered with, to those who may see it. */
const privateHeaders: Record<string, string> = {
  'cache-control': 'private, no-store',
  'cross-origin-resource-policy': 'same-site',
};

/**
 * `/media/ab/cd/<sha256>.<ext>`: the catalog's files, public. Only names that imports create
 * are served (so no traversal, encoded slash, dotfile or staging file can be reached), each
 * with the type its extension names, an ETag, range support and a year of immutable caching:
 * a name's content never changes. A file only hidden or private items use is 404 but to admins and the
 * items' owners, and never cached (docs/uploads.md, "Editing, hiding, deleting").
 */
export const mediaRoutes: FastifyPluginAsync = async (app) => {
  const { config, database } = app.deps;
  const { mediaDir } = config;
  fs.mkdirSync(mediaDir, { recursive: true });
  const { store } = app.deps.media;
  // This app's: kept under its catalog version, so a request costs no query while nothing
  // changes (docs/catalog.md, "Caches and versions").
  const hiddenMedia = createHiddenMedia(app.deps);
  // How answers about such files are cached: never (a 404 either, so unhiding shows at once).
  const uncachedAnswers = new WeakMap<FastifyRequest, Record<string, string>>();
  const cookieName = sessionCookieName(config);
  // @fastify/static adds its route hidden from the document: describe it instead.
  app.addHook('onRoute', (route) => {
    route.schema = { ...mediaSchema, tags: ['media'], security: [] } as typeof route.schema;
    // Files, not pages: a file's headers instead of the pages' baseline (security-headers.ts).
    route.config = { ...route.config, isStoredFile: true };
  });

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
    const hidden = await hiddenMedia.findHiddenFile(relative);
    if (hidden) {
      // Only here is the session looked up: public files never cost one.
      const token = request.cookies[cookieName];
      const user = token ? await findSessionUser(database.db, config, token) : null;
      if (!canSeeHiddenFile(user, hidden)) {
        uncachedAnswers.set(request, { 'cache-control': 'no-store' });
        throw new AppError('not_found', 'No such media file.');
      }
      uncachedAnswers.set(request, privateHeaders);
    }
  });
  app.addHook('onSend', async (request, reply) => {
    const headers = uncachedAnswers.get(request);
    if (headers) reply.headers(headers);
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

  if (store.kind === 's3') {
    // A miss costs a request to the bucket (and, on AWS, a billed GET): names nobody stored,
    // asked over and over, are answered from memory for a while, under the catalog version
    // they were missed in (a file stored since is served at once), and limited per caller
    // (docs/scaling.md, "Media storage").
    const misses = new LRUCache<string, number>({ max: 10_000, ttl: MEDIA_MISS_KEPT_MS });
    const missLimit = app.createRateLimit({
      max: MEDIA_MISSES_PER_MINUTE,
      timeWindow: DEFAULT_RATE_LIMIT_WINDOW_MS,
      keyGenerator: (request) => `media-miss:${rateLimitKey(request)}`,
    });
    const answerMiss = async (request: FastifyRequest): Promise<never> => {
      const limited = await missLimit(request);
      if (!limited.isAllowed && limited.isExceeded) {
        throw new AppError(
          'rate_limited',
          `Too many requests for media files that do not exist: at most ${MEDIA_MISSES_PER_MINUTE} a minute. Try again in a minute.`,
        );
      }
      throw new AppError('not_found', 'No such media file.');
    };
    app.get('/*', async (request, reply) => {
      const key = request.url.split('?')[0]!.replace(/^\/media\//, '');
      const { catalog } = await app.deps.services.versions.read();
      if (catalog !== undefined && misses.get(key) === catalog) return answerMiss(request);
      // A reply is thenable (it settles when sent): awaiting it yields nothing, hence a boolean.
      if (await sendStoredMedia(store, request, reply)) return reply;
      if (catalog !== undefined) misses.set(key, catalog);
      return answerMiss(request);
    });
    return;
  }
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
      for (const [name, value] of Object.entries(immutableHeaders(filePath))) {
        reply.header(name, value);
      }
    },
  });
};

/**
 * The headers of every media file, from disk or bucket: its extension's type, a year of
 * immutable caching (a name's content never changes), open to every origin (apps built on
 * GIPHY's SDK embed and fetch these from their own), ranges.
 */
function immutableHeaders(filePath: string): Record<string, string> {
  const extension = path.extname(filePath).slice(1);
  return {
    'content-type': mediaContentTypes[extension] ?? 'application/octet-stream',
    'cache-control': 'public, max-age=31536000, immutable',
    'access-control-allow-origin': '*',
    'accept-ranges': 'bytes',
  };
}

/** `bytes=a-b`, `bytes=a-` or `bytes=-n`; undefined for none, null for one we do not serve. */
function parseRange(
  header: string | undefined,
): { start?: number; end?: number } | null | undefined {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  const start = match[1] === '' ? undefined : Number(match[1]);
  const end = match[2] === '' ? undefined : Number(match[2]);
  if (start !== undefined && end !== undefined && end < start) return null;
  return { start, end };
}

/**
 * A file from the bucket (STORAGE=s3), answered as the local files are: the type its extension
 * names, a year of immutable caching, ranges, and an ETag that is its name (its content's
 * SHA-256), so a revalidation is a 304 without touching the bucket. False when the bucket has
 * no such file (nothing sent), true once the answer is sent.
 */
async function sendStoredMedia(
  store: MediaStore,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<boolean> {
  const key = request.url.split('?')[0]!.replace(/^\/media\//, '');
  const etag = `"${contentHashOf(key)}"`;
  reply.headers({ ...immutableHeaders(key), etag });
  if (request.headers['if-none-match']?.split(',').some((tag) => tag.trim() === etag)) {
    reply.code(304).send();
    return true;
  }
  const range = parseRange(request.headers.range);
  const object = await store.open(key, range ?? undefined);
  if (!object) return false;
  if (range && !object.range) {
    object.body.destroy();
    reply.header('content-range', `bytes */${object.size}`);
    throw new AppError('range_not_satisfiable', 'The requested range is outside the file.');
  }
  if (object.range) {
    const { start, end } = object.range;
    reply.code(206).header('content-range', `bytes ${start}-${end}/${object.size}`);
    reply.header('content-length', end - start + 1);
  } else {
    reply.header('content-length', object.size);
  }
  reply.send(object.body);
  return true;
}
