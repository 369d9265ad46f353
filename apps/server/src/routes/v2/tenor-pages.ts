import { randomInt } from 'node:crypto';
import type { GiphyItem, TenorResult } from '@sticky/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CatalogDeps } from '../../catalog/query/items.ts';
import { loadTenorSizes } from '../../catalog/query/tenor-sizes.ts';
import { keepPage, sendKeptPage } from '../../plugins/compression.ts';
import type { KeptPage } from '../../plugins/compression.ts';
import { toTenorResult } from './tenor-result.ts';

/** Tenor's `ar_range`: the width ÷ height each range keeps. */
const aspectRatioRanges = {
  all: [0, Number.POSITIVE_INFINITY],
  wide: [0.42, 2.36],
  standard: [0.56, 1.78],
} as const;

export interface PageShaping {
  media_filter?: string[];
  ar_range?: keyof typeof aspectRatioRanges;
  random?: boolean;
}

/**
 * A page of Tenor results as made once for every way of asking for it: each item with every
 * format it has (media_filter picks per request) and its aspect ratio (ar_range keeps per
 * request). Kept while what it was made from is, so asking again reads nothing
 * (docs/api.md, "Kept answers").
 */
export interface TenorPage {
  entries: Array<{ result: TenorResult; ratio: number }>;
  next: string;
  /** The answers sent in order (not shuffled), compressed, per media_filter and ar_range. */
  answers: Map<string, KeptPage>;
}

/** Compressed answers kept per page: the usual few ways an app asks for it. */
const answersPerPage = 4;

/** A page of these items, made once: Tenor's own sizes read in one statement for all of them. */
export async function makeTenorPage(
  deps: CatalogDeps,
  items: GiphyItem[],
  next: string,
): Promise<TenorPage> {
  const tenorSizes = await loadTenorSizes(
    deps,
    items.map((item) => item.id),
  );
  return {
    entries: items.map((item) => ({
      result: toTenorResult(item, undefined, tenorSizes),
      ratio: Number(item.images.original.width) / Number(item.images.original.height),
    })),
    next,
    answers: new Map(),
  };
}

/**
 * A page as Tenor answers it: items outside `ar_range` left out (the page may hold fewer than
 * `limit`; `next` still follows the full list, so paging never skips), in a random order when
 * `random` (within the page: `pos` stays an offset into the same list), each with the formats
 * `media_filter` names.
 */
export function shapeTenorPage(page: TenorPage, shaping: PageShaping) {
  const [low, high] = aspectRatioRanges[shaping.ar_range ?? 'all'];
  const kept = page.entries.filter(({ ratio }) => ratio >= low && ratio <= high);
  if (shaping.random) {
    for (let index = kept.length - 1; index > 0; index -= 1) {
      const other = randomInt(index + 1);
      [kept[index], kept[other]] = [kept[other]!, kept[index]!];
    }
  }
  const filter = shaping.media_filter;
  const results = kept.map(({ result }) =>
    filter
      ? {
          ...result,
          media_formats: Object.fromEntries(
            Object.entries(result.media_formats).filter(([name]) => filter.includes(name)),
          ),
        }
      : result,
  );
  return { results, next: page.next };
}

/**
 * Sends a page shaped as the request asks. In order (not `random`), the answer itself is kept
 * with the page, compressed, for the next request that asks for it the same way.
 */
export function sendTenorPage(
  request: FastifyRequest,
  reply: FastifyReply,
  page: TenorPage,
  shaping: PageShaping,
) {
  if (shaping.random) return shapeTenorPage(page, shaping);
  const key = JSON.stringify([shaping.media_filter ?? null, shaping.ar_range ?? 'all']);
  let answer = page.answers.get(key);
  if (!answer) {
    answer = keepPage(request, JSON.stringify(shapeTenorPage(page, shaping)));
    if (page.answers.size < answersPerPage) page.answers.set(key, answer);
  }
  return sendKeptPage(request, reply, answer);
}
