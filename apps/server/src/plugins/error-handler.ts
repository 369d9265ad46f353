import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, isAppError } from '../lib/app-error.ts';
import { createResponseId } from '../lib/response-id.ts';
import { setFallbackSecurityHeaders } from './security.ts';

const DATABASE_DOWN_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '08000',
  '08003',
  '08006',
]);

function isDatabaseDown(error: unknown): boolean {
  const candidates = [error, (error as { cause?: unknown })?.cause];
  return candidates.some((candidate) => {
    const code = (candidate as { code?: string } | undefined)?.code;
    const message = (candidate as Error | undefined)?.message ?? '';
    return (
      (code !== undefined && DATABASE_DOWN_CODES.has(code)) ||
      message.includes('Connection terminated') ||
      message.includes('is not queryable') ||
      message.includes('timeout exceeded when trying to connect')
    );
  });
}

const STORAGE_MESSAGES: Record<string, string> = {
  ENOSPC: "The server's disk is full, so nothing was saved. Please try again later.",
  EDQUOT: "The server's disk is full, so nothing was saved. Please try again later.",
  EROFS: 'The server cannot write to its data folder (it is read-only), so nothing was saved.',
  EACCES: 'The server is not allowed to write to its data folder, so nothing was saved.',
  // PostgreSQL: disk_full, io_error.
  '53100': "The database's disk is full, so nothing was saved. Please try again later.",
  '58030': 'The database could not write to its disk, so nothing was saved.',
};

/** A write that failed for want of disk (full, read-only): the operator's problem, said plainly. */
function storageMessage(error: unknown): string | undefined {
  const candidates = [error, (error as { cause?: unknown })?.cause];
  for (const candidate of candidates) {
    const code = (candidate as { code?: unknown } | undefined)?.code;
    if (typeof code === 'string' && STORAGE_MESSAGES[code]) return STORAGE_MESSAGES[code];
    // Errors relayed from a worker process keep Node's message ("ENOSPC: no space…") only.
    const prefix = /^(E[A-Z]+):/.exec((candidate as Error | undefined)?.message ?? '')?.[1];
    if (prefix && STORAGE_MESSAGES[prefix]) return STORAGE_MESSAGES[prefix];
  }
  return undefined;
}

/** Turns anything thrown into our one error type, so there is one mapping to HTTP. */
export function toAppError(error: unknown): AppError {
  if (isAppError(error)) return error;
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    return new AppError('bad_request', fastifyError.message);
  }
  if (fastifyError.statusCode === 429) {
    return new AppError('rate_limited', 'Too many requests, please slow down and try again.');
  }
  if (fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return new AppError('payload_too_large', 'Request body is too large.');
  }
  if (fastifyError.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return new AppError('unsupported_media_type', fastifyError.message);
  }
  if (fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError) {
    return new AppError('bad_request', 'Request body is not valid JSON.');
  }
  if (fastifyError.statusCode && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    return new AppError(
      fastifyError.statusCode === 404 ? 'not_found' : 'bad_request',
      fastifyError.message,
    );
  }
  const storage = storageMessage(error);
  if (storage) return new AppError('unavailable', storage);
  if (isDatabaseDown(error)) {
    return new AppError('unavailable', 'The database is unavailable, please try again shortly.');
  }
  return new AppError('internal', 'Something went wrong on our side.');
}

export function isGiphyPath(url: string): boolean {
  return url === '/v1' || url.startsWith('/v1/') || url.startsWith('/v1?');
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError) {
  if (error.status === 503) reply.header('retry-after', '5');
  reply.status(error.status);
  if (isGiphyPath(request.url)) {
    return reply.send({
      meta: { status: error.status, msg: error.message, response_id: createResponseId() },
    });
  }
  return reply.send({ success: false, error: { code: error.code, message: error.message } });
}

/**
 * Errors the router raises before any route or hook runs (a path with broken percent-encoding,
 * a path parameter over maxParamLength). Fastify answers those with its own body and none of
 * our headers unless told otherwise; this keeps them in our envelope, with safe headers.
 */
export function handleFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const appError =
    error.code === 'FST_ERR_BAD_URL'
      ? new AppError('bad_request', 'The URL is not valid: it has a broken %-escape.')
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? new AppError('uri_too_long', 'A part of the URL is too long.')
        : toAppError(error);
  setFallbackSecurityHeaders(reply, request.server.deps.config);
  reply.header('cache-control', 'no-store');
  return sendError(request, reply, appError);
}

export const errorHandlerPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error);
    if (appError.status >= 500) {
      request.log.error({ err: error }, 'request failed');
    }
    return sendError(request, reply, appError);
  });
});
