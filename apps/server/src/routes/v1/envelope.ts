import type { Meta, Pagination } from '@sticky/contracts';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { tooLongIssue } from '@sticky/contracts';
import type { SerializedItems } from '../../catalog/query/serialize.ts';
import { AppError } from '../../lib/app-error.ts';
import { createResponseId } from '../../lib/response-id.ts';

/** GIPHY's success meta: the SDK treats a missing or empty response_id as a failure. */
export function okMeta(): Meta {
  return { status: 200, msg: 'OK', response_id: createResponseId() };
}

/** `{data, pagination, meta}` with GIPHY's exact pagination: count is what `data` holds. */
export function listEnvelope<T>(data: T[], totalCount: number, offset: number) {
  const pagination: Pagination = { total_count: totalCount, count: data.length, offset };
  return { data, pagination, meta: okMeta() };
}

/** `listEnvelope` for items already serialised; send it with `sendJson`. */
export function listEnvelopeJson(
  data: SerializedItems,
  totalCount: number,
  offset: number,
): string {
  const pagination: Pagination = { total_count: totalCount, count: data.count, offset };
  return `{"data":${data.json},"pagination":${JSON.stringify(pagination)},"meta":${JSON.stringify(okMeta())}}`;
}

/** `singleEnvelope` for one item already serialised (the array's only element). */
export function singleEnvelopeJson(data: SerializedItems): string {
  return `{"data":${data.json.slice(1, -1)},"meta":${JSON.stringify(okMeta())}}`;
}

/** Sends an envelope built as text as it is, typed as the JSON it is. */
export function sendJson(reply: FastifyReply, json: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json);
}

export function singleEnvelope<T>(data: T) {
  return { data, meta: okMeta() };
}

/**
 * Validates query parameters with a contract schema; the first problem becomes the error
 * (its message names the parameter), 414 for a too-long query as GIPHY does, else 400.
 */
export function parseParams<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const isTooLong =
    issue?.code === 'custom' &&
    (issue.params as { status?: string } | undefined)?.status === tooLongIssue;
  throw new AppError(
    isTooLong ? 'uri_too_long' : 'bad_request',
    issue?.message ?? 'Invalid parameters',
  );
}
