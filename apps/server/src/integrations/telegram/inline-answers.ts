import type { Rating } from '@sticky/contracts';
import { ratingsUpTo } from '@sticky/contracts';
import { sql } from 'drizzle-orm';
import type { QueryDeps } from '../../catalog/query/query-caches.ts';
import { searchItemIds } from '../../catalog/query/search.ts';
import { mediaUrl } from '../../catalog/query/serialize.ts';
import { listTrendingItems } from '../../catalog/query/trending.ts';

/** Results per answer: a few rows of Telegram's grid (it takes at most 50). */
export const resultsPerPage = 25;

/** How deep paging goes: past it `next_offset` is empty (deep pages cost the most to rank). */
const maxOffset = 500;

/** Telegram fetches a URL result's file itself, up to about 20 MB (docs/integrations.md, "Telegram"). */
const maxUrlFileBytes = 20 * 1024 * 1024;

/** Seconds Telegram may keep an answer for everyone asking the same query. */
const searchCacheSeconds = 300;
/** Trending moves faster than a query's matches. */
const trendingCacheSeconds = 60;

/** Telegram's InlineQueryResultMpeg4Gif. */
export interface Mpeg4GifResult {
  type: 'mpeg4_gif';
  id: string;
  mpeg4_url: string;
  mpeg4_width: number;
  mpeg4_height: number;
  mpeg4_duration?: number;
  thumbnail_url: string;
  thumbnail_mime_type: 'image/jpeg' | 'image/gif' | 'video/mp4';
  title: string;
}

/** Telegram's InlineQueryResultGif: for an item that has no MP4 (yet). */
export interface GifResult {
  type: 'gif';
  id: string;
  gif_url: string;
  gif_width: number;
  gif_height: number;
  gif_duration?: number;
  thumbnail_url: string;
  thumbnail_mime_type: 'image/jpeg' | 'image/gif' | 'video/mp4';
  title: string;
}

export type InlineResult = Mpeg4GifResult | GifResult;

/** The body of `answerInlineQuery` but its `inline_query_id`. */
export interface InlineAnswer {
  results: InlineResult[];
  cache_time: number;
  is_personal: boolean;
  next_offset: string;
  /** Shown above the results: why there are none (no match, a limit reached). */
  button?: { text: string; start_parameter: string };
}

interface RenditionFile {
  name: string;
  format: string;
  width: number;
  height: number;
  bytes: number;
  path: string;
}

interface ShownItem {
  id: string;
  title: string;
  durationMs: number;
  renditions: RenditionFile[];
}

/** Which MP4 is sent: the item as imported, else a 200 px rendition (made before it is listed). */
const videoPreference = ['original', 'fixed_height', 'fixed_width'];
/** For an item without an MP4: a GIF under 2 MB first (docs/api.md, "Renditions"). */
const gifPreference = ['downsized', 'fixed_height', 'fixed_width', 'original'];
const stillPreference = ['fixed_width_still', 'fixed_height_still', 'original_still'];

function pick(
  files: readonly RenditionFile[],
  names: readonly string[],
  format: string,
): RenditionFile | undefined {
  for (const name of names) {
    const file = files.find((entry) => entry.name === name && entry.format === format);
    if (file && file.bytes <= maxUrlFileBytes) return file;
  }
  return undefined;
}

/** One item as Telegram's result: its MP4, else its GIF; undefined when it has neither. */
export function toInlineResult(deps: Pick<QueryDeps, 'config'>, item: ShownItem) {
  const url = (file: RenditionFile) => mediaUrl(deps.config, file.path);
  const still = pick(item.renditions, stillPreference, 'gif');
  const seconds = item.durationMs > 0 ? Math.max(1, Math.round(item.durationMs / 1000)) : undefined;
  const title = item.title.trim() || 'GIF';
  const video = pick(item.renditions, videoPreference, 'mp4');
  if (video) {
    const result: Mpeg4GifResult = {
      type: 'mpeg4_gif',
      id: item.id,
      mpeg4_url: url(video),
      mpeg4_width: video.width,
      mpeg4_height: video.height,
      ...(seconds ? { mpeg4_duration: seconds } : {}),
      thumbnail_url: still ? url(still) : url(video),
      thumbnail_mime_type: still ? 'image/gif' : 'video/mp4',
      title,
    };
    return result;
  }
  const gif = pick(item.renditions, gifPreference, 'gif');
  if (!gif) return undefined;
  const result: GifResult = {
    type: 'gif',
    id: item.id,
    gif_url: url(gif),
    gif_width: gif.width,
    gif_height: gif.height,
    ...(seconds ? { gif_duration: seconds } : {}),
    thumbnail_url: url(still ?? gif),
    thumbnail_mime_type: 'image/gif',
    title,
  };
  return result;
}

/**
 * These GIFs with their files, in the order given, keeping only what a chat may show: public,
 * not hidden, listable, at or below `rating`. Search and trending already leave the others out
 * (an unlisted or private item is not indexable); this says it again where it matters most.
 */
async function readShownItems(
  deps: QueryDeps,
  ids: readonly string[],
  rating: Rating,
): Promise<ShownItem[]> {
  if (ids.length === 0) return [];
  const ratings = ratingsUpTo(rating);
  const result = await deps.database.db.execute<{
    id: string;
    title: string;
    durationMs: number;
    renditions: RenditionFile[];
  }>(sql`
    SELECT i.id, i.title, i.duration_ms AS "durationMs",
      coalesce((SELECT json_agg(json_build_object('name', r.name, 'format', r.format,
        'width', r.width, 'height', r.height, 'bytes', r.bytes, 'path', r.path))
        FROM renditions r WHERE r.item_id = i.id), '[]') AS renditions
    FROM items i
    WHERE i.id = ANY(${sql.param(ids)}::text[]) AND i.type = 'gif'
      AND i.visibility = 'public' AND i.hidden_at IS NULL
      AND i.is_indexable AND NOT i.is_dynamic
      AND i.rating = ANY(${sql.param(ratings)}::text[])`);
  const byId = new Map(result.rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** Telegram's `offset` as we gave it in `next_offset`: a position, else the start. */
export function readOffset(offset: string): number {
  return /^\d{1,4}$/.test(offset) ? Math.min(Number(offset), maxOffset) : 0;
}

/**
 * The answer to an inline query (docs/integrations.md, "Telegram"): the same search as the web
 * app's GIFs, or trending for an empty query, one page from `offset`.
 */
export async function answerInlineQuery(
  deps: QueryDeps,
  options: { query: string; offset: string; rating: Rating },
): Promise<InlineAnswer> {
  const q = options.query.trim().slice(0, 256);
  const offset = readOffset(options.offset);
  const page = { types: ['gif'] as const, rating: options.rating, limit: resultsPerPage, offset };
  const found =
    q === ''
      ? await listTrendingItems(deps, page).then((listed) => ({
          rows: listed.rows.map((row) => row.id),
          totalCount: listed.totalCount,
        }))
      : await searchItemIds(deps, { ...page, q });
  const shown = await readShownItems(deps, found.rows, options.rating);
  const results = shown.flatMap((item) => toInlineResult(deps, item) ?? []);
  const next = offset + resultsPerPage;
  const hasMore = found.rows.length === resultsPerPage && next < found.totalCount;
  const answer: InlineAnswer = {
    results,
    cache_time: q === '' ? trendingCacheSeconds : searchCacheSeconds,
    is_personal: false,
    next_offset: hasMore && next <= maxOffset ? String(next) : '',
  };
  if (results.length === 0 && offset === 0 && q !== '') {
    const shortQuery = q.length > 24 ? `${q.slice(0, 23)}…` : q;
    answer.button = { text: `No GIFs found for “${shortQuery}”`, start_parameter: 'no_match' };
  }
  return answer;
}

/** What a user who asked too often gets: nothing, kept by nobody, and why. */
export function limitedAnswer(): InlineAnswer {
  return {
    results: [],
    cache_time: 0,
    is_personal: true,
    next_offset: '',
    button: { text: 'Too many searches: try again in a minute', start_parameter: 'limit' },
  };
}
