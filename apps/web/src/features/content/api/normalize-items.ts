import type { ContentItem, ContentListResult } from '../content-types.ts';

const booleanFields = [
  'is_anonymous',
  'is_community',
  'is_featured',
  'is_hidden',
  'is_indexable',
  'is_preserve_size',
  'is_realtime',
  'is_removed',
  'is_sticker',
  'is_dynamic',
] as const;
const userBooleanFields = ['suppress_chrome', 'is_public', 'is_verified'] as const;

type Json = Record<string, unknown>;

/**
 * What `@giphy/js-fetch-api` makes of each item it hands over (it does not export its
 * normaliser): the id a string, tags as text, GIPHY's flags as booleans, every rendition's
 * width and height as numbers, the response's id on each item. For answers that reach the
 * app without the client (the first page in the HTML); api/normalize-items.test.ts holds it to
 * the client's own output.
 */
export function normalizeItem(raw: Json, responseId: string): ContentItem {
  const item: Json = { ...raw, id: String(raw.id), response_id: responseId };
  item.tags = ((raw.tags as unknown[] | undefined) ?? []).map((tag) =>
    typeof tag === 'string' ? tag : (tag as { text: string }).text,
  );
  if (!item.bottle_data) item.bottle_data = {};
  for (const field of booleanFields) item[field] = Boolean(raw[field]);
  const images: Record<string, Json> = {};
  for (const [name, rendition] of Object.entries((raw.images as Json | undefined) ?? {})) {
    const copy = { ...(rendition as Json) };
    copy.width = parseInt(String(copy.width), 10);
    copy.height = parseInt(String(copy.height), 10);
    images[name] = copy;
  }
  item.images = images;
  if (raw.user) {
    const user = { ...(raw.user as Json) };
    for (const field of userBooleanFields) user[field] = Boolean(user[field]);
    item.user = user;
  }
  return item as unknown as ContentItem;
}

/** A `/v1` list answer as the client returns it, or null when it is not one. */
export function normalizeListAnswer(raw: unknown): ContentListResult | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const { data, pagination, meta } = raw as Json;
  const responseId = (meta as Json | undefined)?.response_id;
  if (!Array.isArray(data) || typeof responseId !== 'string' || responseId === '') return null;
  if (pagination !== undefined && (typeof pagination !== 'object' || pagination === null)) {
    return null;
  }
  const result: Json = { data: data.map((item) => normalizeItem(item as Json, responseId)) };
  if (pagination !== undefined) result.pagination = pagination;
  result.meta = meta;
  return result as unknown as ContentListResult;
}
