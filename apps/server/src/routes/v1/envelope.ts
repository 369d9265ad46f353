import type { Meta, Pagination } from '@sticky/contracts';
import type { FastifyReply } from 'fastify';
import type { SerializedItems } from '../../catalog/query/item-json.ts';
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

/** `listEnvelope` for items already serialized; send it with `sendJson`. */
export function listEnvelopeJson(
  data: SerializedItems,
  totalCount: number,
  offset: number,
): string {
  const pagination: Pagination = { total_count: totalCount, count: data.count, offset };
  return `{"data":${data.json},"pagination":${JSON.stringify(pagination)},"meta":${JSON.stringify(okMeta())}}`;
}

/** `singleEnvelope` for one item already serialized (the array's only element). */
export function singleEnvelopeJson(data: SerializedItems): string {
  return `{"data":${data.json.slice(1, -1)},"meta":${JSON.stringify(okMeta())}}`;
}

/**
 * Sends an envelope built as text as it is, typed as the JSON it is. Fastify does not
 * serialize a string payload again: the route's response schema documents it, and the tests
 * check real answers against that schema (docs/api.md, "Kept answers").
 */
export function sendJson(reply: FastifyReply, json: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json);
}

export function singleEnvelope<T>(data: T) {
  return { data, meta: okMeta() };
}
