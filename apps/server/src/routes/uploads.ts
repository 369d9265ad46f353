import multipart from '@fastify/multipart';
import {
  createUploadsResponseSchema,
  listUploadsQuerySchema,
  listUploadsResponseSchema,
  uploadFieldsSchema,
  uploadLimitsResponseSchema,
} from '@sticky/contracts';
import type { CreateUploadsResponse } from '@sticky/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, isAppError } from '../lib/app-error.ts';
import { ensureNotBannedFromUploads } from '../moderation/upload-bans.ts';
import { apiErrorResponses } from '../plugins/error-handler.ts';
import { tagRoutesAs } from '../plugins/openapi.ts';
import { readBearer, requireSignedIn, signedInUser } from '../plugins/session.ts';
import { findTokenVisibility } from '../auth/api-tokens.ts';
import { ensureFreeSpace } from '../storage/free-space.ts';
import { receiveMultipart } from '../uploads/receive-files.ts';
import { refuseOverDeclaredSize } from '../uploads/upload-quota.ts';
import {
  acceptUploads,
  getUploadLimits,
  listUploads,
  uploadTempDir,
} from '../uploads/uploads-service.ts';

/**
 * The form `POST /api/uploads` reads, as the API reference shows it (and its "Test Request"
 * sends it): the parts are validated by receiveMultipart, not by a body schema.
 */
const uploadFormSchema = uploadFieldsSchema.extend({
  file: z.string().meta({
    format: 'binary',
    description: 'The file: GIF, animated WebP, PNG, JPEG or WebP. Repeat the part for more files.',
  }),
});

/** Room for a request's form fields and part headers beside its files. */
const FORM_OVERHEAD_BYTES = 256 * 1024;

async function requireUploader(request: FastifyRequest) {
  const user = signedInUser(request);
  if (!user.canUpload) {
    throw new AppError(
      'forbidden',
      request.server.deps.config.uploads.mode === 'off'
        ? 'Uploads are turned off on this server.'
        : 'Only admins may upload on this server.',
    );
  }
  // A person an admin stopped is told why, before a byte of the body is read.
  await ensureNotBannedFromUploads(request.server.deps.database, user.id);
  return user;
}

function requireAdmin(request: FastifyRequest) {
  const user = signedInUser(request);
  if (!user.isAdmin) throw new AppError('forbidden', 'Only admins may see everyone’s uploads.');
  return user;
}

/** `/api/uploads` and `/api/admin/uploads` (docs/uploads.md). */
export const uploadsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config } = app.deps;
  const limits = config.uploads;
  tagRoutesAs(app, 'uploads');
  await app.register(multipart, {
    limits: {
      fileSize: limits.maxFileBytes,
      files: limits.maxFilesPerRequest,
      fields: 20,
      fieldSize: 4096,
      parts: limits.maxFilesPerRequest + 20,
      headerPairs: 100,
    },
    // receive-files.ts stops the request itself at a file's 'limit' (a 413 naming the file),
    // rather than the plugin's error, which only comes once the whole body has been read.
    throwFileSizeLimit: false,
  });
  app.addHook('onRequest', requireSignedIn);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.post(
    '/uploads',
    {
      config: { isMultipart: true, rateLimit: { max: 60 }, tokenScope: 'upload' },
      // Each file's outcome in /metrics; a request refused whole counts once, by its error code
      // (docs/operations.md, "Metrics").
      preSerialization: async (_request, _reply, payload: unknown) => {
        const receipts = (payload as Partial<CreateUploadsResponse>).uploads ?? [];
        for (const receipt of receipts) {
          if (receipt.isDuplicate) app.deps.metrics.countUpload('duplicate');
          else if (receipt.state === 'failed') app.deps.metrics.countUpload('refused', 'file');
          else app.deps.metrics.countUpload('accepted');
        }
        return payload;
      },
      onError: async (_request, _reply, error) => {
        app.deps.metrics.countUpload('refused', isAppError(error) ? error.code : 'error');
      },
      schema: {
        summary: 'Upload files (multipart/form-data)',
        description:
          'One or more `file` parts (GIF, animated WebP, PNG, JPEG, WebP: sniffed from the bytes) and the optional fields `title`, `tags` (comma-separated), `type` (`gif` or `sticker`; default from transparency), `category` (`Name` or `Parent/Sub`), `rating` and `source`, applied to every file. Answers 202 with one receipt per file, in order: accepted (`processing`, then poll `GET /api/uploads`), a duplicate of an existing item, or refused with its reason. When no file is taken, the refusal itself: 415 (not an image), 429 (daily quota) or 400. A file over UPLOAD_MAX_BYTES ends the whole request at once: 413 naming the file and the limit, sent before the rest of the body is read, with `Connection: close`; nothing of that request is kept, so send one file per request (as the web app does) when some may be too big. A request whose Content-Length is over what any request may carry gets 413, and one sent while the server is low on disk space (MIN_FREE_DISK_MB) 503, both before the body is read. Authenticate with the session cookie or `Authorization: Bearer <token>`.',
        consumes: ['multipart/form-data'],
        multipartBody: uploadFormSchema,
        response: { 202: createUploadsResponseSchema, ...apiErrorResponses },
      },
    },
    async (request, reply) => {
      const user = await requireUploader(request);
      // Refused before a byte of the body is read: no request may carry more than this.
      const declared = Number(request.headers['content-length'] ?? 0);
      const ceiling = limits.maxFilesPerRequest * limits.maxFileBytes + FORM_OVERHEAD_BYTES;
      if (declared > ceiling) {
        reply.header('connection', 'close');
        throw new AppError(
          'payload_too_large',
          `The request is over ${Math.round(ceiling / (1024 * 1024))} MB: send at most ${limits.maxFilesPerRequest} files of at most ${Math.round(limits.maxFileBytes / (1024 * 1024))} MB each.`,
        );
      }
      if (!request.isMultipart()) {
        throw new AppError('unsupported_media_type', 'Send the files as multipart/form-data.');
      }
      // Nor is a request that cannot fit in what is left of the person's day: 429 at once
      // rather than after its whole body came in (docs/uploads.md, "Receiving").
      try {
        await refuseOverDeclaredSize(app.deps, user.id, declared, FORM_OVERHEAD_BYTES);
      } catch (error) {
        reply.header('connection', 'close');
        throw error;
      }
      // Below MIN_FREE_DISK_MB nothing new is taken, still before a byte of the body is read:
      // the files would land in DATA_DIR, then in its database and media (docs/uploads.md,
      // "Receiving").
      try {
        await ensureFreeSpace(
          config,
          config.dataDir,
          'no new uploads are taken right now. Try again later; what was uploaded before still works.',
        );
      } catch (error) {
        reply.header('connection', 'close');
        throw error;
      }
      let received;
      try {
        received = await receiveMultipart(request.parts(), {
          tempDir: uploadTempDir(config),
          maxFileBytes: limits.maxFileBytes,
        });
      } catch (error) {
        // The rest of the body was not read (a file over UPLOAD_MAX_BYTES stops the reading at
        // once, docs/uploads.md, "Receiving"), so this connection cannot carry another request.
        reply.header('connection', 'close');
        throw describeMultipartError(error, limits.maxFilesPerRequest);
      }
      try {
        const bearer = request.authMethod === 'token' ? readBearer(request) : undefined;
        const tokenVisibility = bearer
          ? await findTokenVisibility(app.deps.database.db, bearer)
          : undefined;
        const response = await acceptUploads(app.deps, user, received, tokenVisibility);
        return reply.code(202).send(response);
      } finally {
        await received.discard();
      }
    },
  );

  app.get(
    '/uploads',
    {
      config: { tokenScope: 'upload' },
      schema: {
        summary: 'My uploads, newest first',
        querystring: listUploadsQuerySchema,
        response: { 200: listUploadsResponseSchema, ...apiErrorResponses },
      },
    },
    async (request) => listUploads(app.deps, { userId: signedInUser(request).id }, request.query),
  );

  app.get(
    '/uploads/limits',
    {
      config: { tokenScope: 'upload' },
      schema: {
        summary: 'What I may upload, and what I have used today',
        response: { 200: uploadLimitsResponseSchema, ...apiErrorResponses },
      },
    },
    async (request) => getUploadLimits(app.deps, signedInUser(request)),
  );

  app.get(
    '/admin/uploads',
    {
      config: { tokenScope: 'admin' },
      schema: {
        summary: 'Everyone’s uploads, newest first, with who sent them (admins)',
        querystring: listUploadsQuerySchema,
        response: { 200: listUploadsResponseSchema, ...apiErrorResponses },
      },
    },
    async (request) => {
      requireAdmin(request);
      return listUploads(app.deps, { isEveryone: true }, request.query);
    },
  );
};

/** busboy's and the plugin's errors, in words that say what to change. */
function describeMultipartError(error: unknown, maxFiles: number): unknown {
  const code = (error as { code?: string })?.code;
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') {
    return new AppError('payload_too_large', `Send at most ${maxFiles} files at once.`);
  }
  if (code === 'FST_FIELDS_LIMIT') {
    return new AppError(
      'bad_request',
      'Too many form fields: send title, tags, type, category, rating and source at most once each.',
    );
  }
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') {
    return new AppError('unsupported_media_type', 'Send the files as multipart/form-data.');
  }
  const message = (error as Error)?.message ?? '';
  if (/Unexpected end of (multipart|form)|Malformed|boundary/i.test(message)) {
    return new AppError('bad_request', 'The form data was cut off or malformed; send it again.');
  }
  return error;
}
