import type { ApiError, ErrorEnvelope } from '@sticky/contracts';
import { apiErrorSchema, errorEnvelopeSchema, tooLongIssue } from '@sticky/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseDiskFull, isDatabaseDown, isDatabaseIoError } from '../db/database-errors.ts';
import { AppError, isAppError } from '../lib/app-error.ts';
import { createResponseId } from '../lib/response-id.ts';
import { setFallbackSecurityHeaders } from './security-headers.ts';

/**
 * Everything thrown becomes one AppError, and each API has one mapping of AppError to its
 * envelope: `/api` answers `{success: false, error: {code, message}}`, `/v1` answers GIPHY's
 * `{meta: {status, msg, response_id}}` (docs/api.md, "Errors"). Each API plugin installs its
 * mapping as its own error and not-found handler; nothing here looks at the URL except the
 * router's own errors, which Fastify raises before any plugin is chosen.
 */

const STORAGE_MESSAGES: Record<string, string> = {
  ENOSPC: "The server's disk is full, so nothing was saved. Please try again later.",
  EDQUOT: "The server's disk is full, so nothing was saved. Please try again later.",
  EROFS: 'The server cannot write to its data folder (it is read-only), so nothing was saved.',
  EACCES: 'The server is not allowed to write to its data folder, so nothing was saved.',
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
  if (isDatabaseDiskFull(error)) {
    return "The database's disk is full, so nothing was saved. Please try again later.";
  }
  if (isDatabaseIoError(error))
    return 'The database could not write to its disk, so nothing was saved.';
  return undefined;
}

const validationSubjects: Record<string, string> = {
  body: 'request body',
  querystring: 'query parameter',
  params: 'path parameter',
  headers: 'header',
};

/**
 * A request that failed its route's zod schema. The first problem is the message: the
 * contracts' own messages (custom issues, which name their parameter and become GIPHY's
 * `meta.msg`) as they are, zod's generic ones prefixed with what and where. A too-long search
 * term is 414, as GIPHY answers it.
 */
function fromValidationError(error: FastifyError): AppError {
  const subject = validationSubjects[error.validationContext ?? ''] ?? 'request';
  if (!hasZodFastifySchemaValidationErrors(error)) {
    return new AppError('bad_request', `Invalid ${subject}: ${error.message}`);
  }
  const [issue] = error.validation;
  const params = issue?.params as { params?: { status?: string } } | undefined;
  if (issue?.keyword === 'custom') {
    const isTooLong = params?.params?.status === tooLongIssue;
    return new AppError(isTooLong ? 'uri_too_long' : 'bad_request', issue.message ?? 'Invalid.');
  }
  const where = (issue?.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
  return new AppError(
    'bad_request',
    `Invalid ${subject}: ${where ? `${where}: ` : ''}${issue?.message ?? 'invalid'}`,
  );
}

/** Turns anything thrown into our one error type, so there is one mapping to HTTP. */
export function toAppError(error: unknown): AppError {
  if (isAppError(error)) return error;
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) return fromValidationError(fastifyError);
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
  if (fastifyError.statusCode === 416) {
    return new AppError('range_not_satisfiable', 'The requested range is outside the file.');
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

/** `/api`'s error body. */
export function toApiErrorBody(error: AppError): ApiError {
  return { success: false, error: { code: error.code, message: error.message } };
}

/** `/v1`'s error body: GIPHY's envelope, by status alone. */
export function toGiphyErrorBody(error: AppError): ErrorEnvelope {
  return { meta: { status: error.status, msg: error.message, response_id: createResponseId() } };
}

/** The error answers every `/api` route documents (its schema's `response`). */
export const apiErrorResponses = { '4xx': apiErrorSchema, '5xx': apiErrorSchema } as const;

/** The error answers every `/v1` route documents: GIPHY's `{meta}`. */
export const giphyErrorResponses = {
  '4xx': errorEnvelopeSchema,
  '5xx': errorEnvelopeSchema,
} as const;

/** How one API writes an error (`/api`, GIPHY's `/v1`, Tenor's `/v2`). */
export type ErrorBody = (error: AppError) => unknown;

/**
 * Each API's error body by its path prefix, kept per app (decorated in app.ts): the router's
 * own errors come before any plugin is chosen, so `handleFrameworkError` looks the body up here.
 */
export type ErrorBodiesByPrefix = Map<string, ErrorBody>;

function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  error: unknown,
  toBody: ErrorBody,
): FastifyReply {
  const appError = toAppError(error);
  if (appError.status >= 500) request.log.error({ err: error }, 'request failed');
  if (appError.status === 503) reply.header('retry-after', '5');
  return reply.status(appError.status).send(toBody(appError));
}

/** Answers anything thrown in `/api`'s envelope. */
export function sendApiError(request: FastifyRequest, reply: FastifyReply, error: unknown) {
  return sendError(request, reply, error, toApiErrorBody);
}

function notFound(request: FastifyRequest): AppError {
  return new AppError('not_found', `Not found: ${request.method} ${request.url.split('?')[0]}`);
}

/**
 * This plugin's errors (and, unless told otherwise, its unknown paths) in its API's envelope;
 * call it inside the plugin. It also tells the router-level handler which body its prefix uses.
 */
export function answerErrorsWith(
  app: FastifyInstance,
  toBody: ErrorBody,
  options = { isNotFoundToo: true },
): void {
  if (app.prefix) app.errorBodiesByPrefix.set(app.prefix, toBody);
  app.setErrorHandler((error, request, reply) => sendError(request, reply, error, toBody));
  if (options.isNotFoundToo) {
    app.setNotFoundHandler((request, reply) =>
      sendError(request, reply, notFound(request), toBody),
    );
  }
}

/**
 * This plugin's errors and unknown paths in `/api`'s envelope. The root uses only the error
 * half: its not-found answer is the web app's (routes/spa.ts).
 */
export function answerErrorsAsApi(app: FastifyInstance, options = { isNotFoundToo: true }): void {
  answerErrorsWith(app, toApiErrorBody, options);
}

/** This plugin's errors and unknown paths in GIPHY's envelope (`/v1`). */
export function answerErrorsAsGiphy(app: FastifyInstance): void {
  answerErrorsWith(app, toGiphyErrorBody);
}

/**
 * Errors the router raises before any route or plugin is chosen (a path with broken
 * percent-encoding, a path parameter over maxParamLength). Fastify offers only this one
 * server-wide option for them (`frameworkErrors`), so it is the one place that picks the
 * envelope by path prefix, from the prefixes the APIs registered through `answerErrorsWith`
 * (docs/architecture.md, "Request flow"). The answer gets the strictest
 * headers, as no hook has run.
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
  const path = request.url.split('?')[0]!;
  // The longest prefix wins: /v2/emoji is GIPHY's inside Tenor's /v2.
  let toBody: ErrorBody = toApiErrorBody;
  let matched = '';
  for (const [prefix, body] of request.server.errorBodiesByPrefix) {
    const isUnder = path === prefix || path.startsWith(`${prefix}/`);
    if (isUnder && prefix.length > matched.length) {
      toBody = body;
      matched = prefix;
    }
  }
  return sendError(request, reply, appError, toBody);
}
