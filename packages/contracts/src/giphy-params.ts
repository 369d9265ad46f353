import { z } from 'zod';
import { limits, ratingSchema } from './giphy.ts';
import type { Rating } from './giphy.ts';

/**
 * Query parameters of our GIPHY-compatible `/v1` (docs/api.md, "/v1"). Unknown parameters are
 * ignored (zod strips them): the SDK sends `api_key`, `pingback_id`, `type` and the literal
 * string `excludeDynamicResults=undefined`. Every problem message names its parameter, since
 * it becomes `meta.msg`, which the SDK shows as '@giphy/js-fetch-api: ' + msg.
 */

/** Ratings from the mildest up; a request's rating is a ceiling. */
export const ratingOrder: readonly Rating[] = ['g', 'pg', 'pg-13', 'r'];

/** The ratings at or below `ceiling`; all of them when no ceiling is asked. */
export function ratingsUpTo(ceiling: Rating | undefined): Rating[] {
  if (!ceiling) return [...ratingOrder];
  return ratingOrder.slice(0, ratingOrder.indexOf(ceiling) + 1);
}

/** Issue param marking a too-long query: GIPHY answers 414, not 400. */
export const tooLongIssue = 'uri_too_long';

/** An item id: base62 like GIPHY's, sometimes with `-`/`_`. */
export const itemIdPattern = /^[A-Za-z0-9_-]{1,64}$/;

const maxIds = 100;

/**
 * One query value as a string, or undefined when absent. `URLSearchParams` turns an unset
 * option into the string "undefined", so that counts as absent too.
 */
function readSingle(name: string, value: unknown, ctx: z.RefinementCtx): string | undefined {
  if (Array.isArray(value)) {
    ctx.addIssue({ code: 'custom', message: `${name} must be given once` });
    return undefined;
  }
  if (value === undefined || value === null) return undefined;
  const text = String(value).trim();
  if (text === '' || text === 'undefined' || text === 'null') return undefined;
  return text;
}

const wholeNumber = (name: string, fallback: number, min: number, max: number, clampTo?: number) =>
  z
    .unknown()
    .optional()
    .transform((value, ctx) => {
      const text = readSingle(name, value, ctx);
      if (text === undefined) return fallback;
      const number = /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
      // A limit above the maximum is served at the maximum, as GIPHY does; pagination says so.
      if (clampTo !== undefined && number > clampTo) return clampTo;
      if (!Number.isInteger(number) || number < min || number > max) {
        ctx.addIssue({
          code: 'custom',
          message: `${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(text)}`,
        });
        return z.NEVER;
      }
      return number;
    })
    .meta({
      type: 'integer',
      minimum: min,
      maximum: clampTo ?? max,
      default: fallback,
      description: `${name}, a whole number from ${min} to ${max}${clampTo !== undefined ? ' (more is served at the maximum)' : ''}`,
    });

/** `limit`: default 25 (5 for autocomplete), anything above the maximum is served at it. */
export const limitParam = (fallback: number = limits.pageSize, max: number = limits.maxLimit) =>
  wholeNumber('limit', fallback, 1, max, max);

export const offsetParam = wholeNumber('offset', 0, 0, limits.maxOffset);

export const ratingParam = z
  .unknown()
  .optional()
  .transform((value, ctx): Rating | undefined => {
    const text = readSingle('rating', value, ctx)?.toLowerCase();
    if (text === undefined) return undefined;
    // GIPHY's "y" (youth) is stricter than g; g is the strictest rating our catalog records.
    if (text === 'y') return 'g';
    const parsed = ratingSchema.safeParse(text);
    if (!parsed.success) {
      ctx.addIssue({
        code: 'custom',
        message: `rating must be one of g, pg, pg-13, r, got ${JSON.stringify(text)}`,
      });
      return z.NEVER;
    }
    return parsed.data;
  })
  .meta({
    type: 'string',
    enum: ['g', 'pg', 'pg-13', 'r', 'y'],
    description: 'The highest rating to include (y is served as g).',
  });

export const langParam = z
  .unknown()
  .optional()
  .transform((value, ctx) => {
    const text = readSingle('lang', value, ctx);
    if (text === undefined) return undefined;
    if (!/^[a-z]{2}(-[a-z]{2,4})?$/i.test(text)) {
      ctx.addIssue({
        code: 'custom',
        message: `lang must be a 2-letter ISO 639-1 code such as en, got ${JSON.stringify(text)}`,
      });
      return z.NEVER;
    }
    return text.toLowerCase();
  })
  .meta({ type: 'string', description: 'A 2-letter ISO 639-1 language code, such as en.' });

export const searchSortSchema = z.enum(['relevant', 'recent']);
export type SearchSort = z.infer<typeof searchSortSchema>;

export const sortParam = z
  .unknown()
  .optional()
  .transform((value, ctx): SearchSort => {
    const text = readSingle('sort', value, ctx)?.toLowerCase();
    if (text === undefined) return 'relevant';
    const parsed = searchSortSchema.safeParse(text);
    if (!parsed.success) {
      ctx.addIssue({
        code: 'custom',
        message: `sort must be relevant or recent, got ${JSON.stringify(text)}`,
      });
      return z.NEVER;
    }
    return parsed.data;
  })
  .meta({ type: 'string', enum: ['relevant', 'recent'], default: 'relevant' });

/** A search term, spaces collapsed; undefined when absent, NEVER (with an issue) when bad. */
function readTerm(name: string, value: unknown, ctx: z.RefinementCtx): string | undefined {
  const text = readSingle(name, value, ctx)?.replace(/\s+/g, ' ');
  if (text !== undefined && [...text].length > limits.maxQueryLength) {
    ctx.addIssue({
      code: 'custom',
      message: `${name} must be at most ${limits.maxQueryLength} characters`,
      params: { status: tooLongIssue },
    });
  }
  return text;
}

const termMeta = (description: string) => ({
  type: 'string' as const,
  maxLength: limits.maxQueryLength,
  description: `${description} At most ${limits.maxQueryLength} characters (longer: 414).`,
});

/** A required search term, at most 50 characters (longer → 414, as GIPHY). */
const requiredTermParam = (name: string, description: string) =>
  z
    .unknown()
    .transform((value, ctx): string => {
      const text = readTerm(name, value, ctx);
      if (text === undefined) {
        ctx.addIssue({ code: 'custom', message: `${name} is required` });
        return z.NEVER;
      }
      return text;
    })
    .meta(termMeta(description));

/** An optional search term, at most 50 characters (longer → 414, as GIPHY). */
const optionalTermParam = (name: string, description: string) =>
  z
    .unknown()
    .optional()
    .transform((value, ctx): string | undefined => readTerm(name, value, ctx))
    .meta(termMeta(description));

const itemIdParam = (name: string) =>
  z
    .unknown()
    .optional()
    .transform((value, ctx) => {
      const text = readSingle(name, value, ctx);
      if (text === undefined) {
        ctx.addIssue({ code: 'custom', message: `${name} is required` });
        return z.NEVER;
      }
      if (!itemIdPattern.test(text)) {
        ctx.addIssue({ code: 'custom', message: `${name} is not a valid item id` });
        return z.NEVER;
      }
      return text;
    })
    .meta({ type: 'string', pattern: itemIdPattern.source, description: 'An item id.' });

export const trendingParamsSchema = z.object({
  limit: limitParam(),
  offset: offsetParam,
  rating: ratingParam,
});
export type TrendingParams = z.output<typeof trendingParamsSchema>;

export const searchParamsSchema = z.object({
  q: requiredTermParam('q', "The search words (GIPHY's operators: @user, -word, or)."),
  limit: limitParam(),
  offset: offsetParam,
  rating: ratingParam,
  lang: langParam,
  sort: sortParam,
});
export type SearchParams = z.output<typeof searchParamsSchema>;

export const idsParamsSchema = z.object({
  ids: z
    .unknown()
    .optional()
    .transform((value, ctx) => {
      const text = readSingle('ids', value, ctx);
      const ids = [...new Set((text ?? '').split(',').map((id) => id.trim()))].filter(Boolean);
      if (ids.length === 0) {
        ctx.addIssue({ code: 'custom', message: 'ids is required: a comma-separated list of ids' });
        return z.NEVER;
      }
      if (ids.length > maxIds) {
        ctx.addIssue({ code: 'custom', message: `ids can list at most ${maxIds} ids` });
        return z.NEVER;
      }
      const bad = ids.find((id) => !itemIdPattern.test(id));
      if (bad !== undefined) {
        ctx.addIssue({
          code: 'custom',
          message: `ids contains an invalid id: ${JSON.stringify(bad.slice(0, 70))}`,
        });
        return z.NEVER;
      }
      return ids;
    })
    .meta({
      type: 'string',
      description: `Up to ${maxIds} item ids, separated by commas.`,
    }),
});
export type IdsParams = z.output<typeof idsParamsSchema>;

export const itemIdPathSchema = z.object({ id: itemIdParam('id') });

/** `gifs/categories/{category}` and `gifs/categories/{category}/{subcategory}`. */
export const categoryPathSchema = z.object({
  category: z.string().meta({ description: 'A category, as its name_encoded.' }),
});
export const subcategoryPathSchema = categoryPathSchema.extend({
  subcategory: z.string().meta({ description: 'A subcategory, as its name_encoded.' }),
});

export const relatedParamsSchema = z.object({
  gif_id: itemIdParam('gif_id'),
  limit: limitParam(),
  offset: offsetParam,
  rating: ratingParam,
});
export type RelatedParams = z.output<typeof relatedParamsSchema>;

export const randomParamsSchema = z.object({
  tag: optionalTermParam('tag', 'Only items with this tag.'),
  rating: ratingParam,
});
export type RandomParams = z.output<typeof randomParamsSchema>;

/**
 * Category endpoints: the SDK's `categories()`, `subcategories()` and `gifs(category, sub)`
 * send no rating and cannot be given one, so these default to the SDK's own default ceiling,
 * pg-13, rather than to every rating.
 */
const categoryRatingParam = ratingParam.transform((rating): Rating => rating ?? 'pg-13');

/**
 * Category lists default to the maximum page: GIPHY returns every category at once and the
 * SDK's `categories()` sends no limit.
 */
export const categoriesParamsSchema = z.object({
  limit: limitParam(limits.maxLimit),
  offset: offsetParam,
  rating: categoryRatingParam,
});
export type CategoriesParams = z.output<typeof categoriesParamsSchema>;

export const categoryItemsParamsSchema = z.object({
  limit: limitParam(),
  offset: offsetParam,
  rating: categoryRatingParam,
});
export type CategoryItemsParams = z.output<typeof categoryItemsParamsSchema>;

/** `gifs/search/tags` (autocomplete): GIPHY's default page is 5 suggestions. */
export const autocompleteParamsSchema = z.object({
  q: requiredTermParam('q', 'The start of a tag.'),
  limit: limitParam(5),
  offset: offsetParam,
  rating: ratingParam,
});
export type AutocompleteParams = z.output<typeof autocompleteParamsSchema>;

/** `gifs/translate`, `stickers/translate`: the one best item for a phrase (slash commands). */
export const translateParamsSchema = z.object({
  s: requiredTermParam('s', 'The phrase to show as one item.'),
  weirdness: wholeNumber('weirdness', 0, 0, 10),
  rating: ratingParam,
});
export type TranslateParams = z.output<typeof translateParamsSchema>;

/** `emoji` (v1 and v2): the emoji stickers, a page at a time. */
export const emojiParamsSchema = z.object({
  limit: limitParam(),
  offset: offsetParam,
});
export type EmojiParams = z.output<typeof emojiParamsSchema>;

/** `channels/search`: creators by name or description. */
export const channelSearchParamsSchema = z.object({
  q: requiredTermParam('q', "Words of a channel's name or description."),
  limit: limitParam(),
  offset: offsetParam,
  rating: ratingParam,
});
export type ChannelSearchParams = z.output<typeof channelSearchParamsSchema>;

/** `tags/related/{term}` (search suggestions). */
export const relatedTagsPathSchema = z.object({
  term: z
    .string()
    .transform((value, ctx) => {
      const term = value.trim().replace(/\s+/g, ' ').toLowerCase();
      if (term === '' || [...term].length > limits.maxQueryLength) {
        ctx.addIssue({
          code: 'custom',
          message: `term must be 1 to ${limits.maxQueryLength} characters`,
        });
        return z.NEVER;
      }
      return term;
    })
    .meta({ type: 'string', description: 'A tag or search term.' }),
});
export const relatedTagsParamsSchema = z.object({ limit: limitParam(10) });

/** `pingback_simple`: the URLs items carry in `analytics`. */
export const pingbackParamsSchema = z.object({
  gif_id: itemIdParam('gif_id'),
  action_type: z
    .string()
    .transform((value) => value.toUpperCase())
    .pipe(z.enum(['SEEN', 'CLICK', 'SENT'], { error: 'action_type must be SEEN, CLICK or SENT' })),
});
