import { z } from 'zod';
import { limits } from './giphy.ts';

/**
 * Tenor v2's wire shapes and parameters (docs/api.md, "/v2 (Tenor)"): an app written for
 * Tenor's API works against ours by changing its base URL.
 */

/** Tenor's `contentfilter`, strictest last. */
export const tenorContentFilterSchema = z.enum(['off', 'low', 'medium', 'high']);
export type TenorContentFilter = z.infer<typeof tenorContentFilterSchema>;

/** Tenor's format names we serve; a format with no real rendition of its size is left out. */
export const tenorFormatNames = [
  'gif',
  'mediumgif',
  'tinygif',
  'nanogif',
  'mp4',
  'tinymp4',
  'nanomp4',
  'webm',
  'tinywebm',
  'nanowebm',
  'gif_transparent',
  'tinygif_transparent',
  'nanogif_transparent',
  'webp_transparent',
  'tinywebp_transparent',
  'nanowebp_transparent',
  'preview',
] as const;
export type TenorFormatName = (typeof tenorFormatNames)[number];

export const tenorMediaSchema = z.object({
  url: z.string(),
  dims: z.tuple([z.number().int(), z.number().int()]),
  duration: z.number(),
  size: z.number().int(),
});
export type TenorMedia = z.infer<typeof tenorMediaSchema>;

export const tenorResultSchema = z.object({
  id: z.string(),
  title: z.string(),
  content_description: z.string(),
  itemurl: z.string(),
  url: z.string(),
  tags: z.array(z.string()),
  created: z.number(),
  flags: z.array(z.string()),
  hasaudio: z.boolean(),
  bg_color: z.string(),
  media_formats: z.partialRecord(z.enum(tenorFormatNames), tenorMediaSchema),
});
export type TenorResult = z.infer<typeof tenorResultSchema>;

export const tenorResultsSchema = z.object({
  results: z.array(tenorResultSchema),
  next: z.string(),
});

export const tenorErrorSchema = z.object({
  error: z.object({ code: z.number().int(), message: z.string(), status: z.string() }),
});

const limitParam = z.coerce
  .number({ message: 'limit must be a whole number from 1 to 50.' })
  .int({ message: 'limit must be a whole number from 1 to 50.' })
  .min(1, { message: 'limit must be a whole number from 1 to 50.' })
  .max(limits.maxLimit, { message: 'limit must be a whole number from 1 to 50.' })
  .default(20);

/** `pos` is the `next` we gave: opaque to clients, an offset to us. */
const posParam = z
  .string()
  .regex(/^\d{1,4}$/, { message: 'pos must be a value of next from an earlier answer.' })
  .refine((value) => Number(value) <= limits.maxOffset, {
    message: 'pos must be a value of next from an earlier answer.',
  })
  .optional();

const mediaFilterParam = z
  .string()
  .optional()
  .transform((value) =>
    value
      ? value
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean)
      : undefined,
  );

const searchFilterParam = z
  .string()
  .optional()
  .refine(
    (value) =>
      !value ||
      value.split(',').every((part) => ['sticker', 'static', '-static', ''].includes(part)),
    { message: 'searchfilter must be sticker, static or -static.' },
  );

/** Parameters every list endpoint shares; unknown ones (key, client_key, locale, …) are ignored. */
export const tenorListParamsSchema = z.object({
  key: z.string().optional(),
  client_key: z.string().optional(),
  limit: limitParam,
  pos: posParam,
  media_filter: mediaFilterParam,
  contentfilter: z
    .enum(tenorContentFilterSchema.options, {
      message: 'contentfilter must be off, low, medium or high.',
    })
    .default('off'),
  searchfilter: searchFilterParam,
  /** Aspect ratios kept: all, wide (0.42 to 2.36) or standard (0.56 to 1.78), as Tenor's. */
  ar_range: z
    .enum(['all', 'wide', 'standard'], { message: 'ar_range must be all, wide or standard.' })
    .default('all'),
  /** Tenor's `random=true`: the page in a random order. */
  random: z
    .enum(['true', 'false'], { message: 'random must be true or false.' })
    .default('false')
    .transform((value) => value === 'true'),
  locale: z.string().optional(),
  country: z.string().optional(),
});

export const tenorSearchParamsSchema = tenorListParamsSchema.extend({
  q: z
    .string({ message: 'q is required.' })
    .trim()
    .min(1, { message: 'q is required.' })
    .max(limits.maxQueryLength, {
      message: `q is longer than ${limits.maxQueryLength} characters.`,
    }),
});

export const tenorPostsParamsSchema = z.object({
  ids: z
    .string({ message: 'ids is required.' })
    .transform((value) =>
      value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean),
    )
    .refine((ids) => ids.length > 0 && ids.length <= 50, {
      message: 'ids must list from 1 to 50 ids.',
    }),
  media_filter: mediaFilterParam,
});

export const tenorTermParamsSchema = z.object({
  q: z
    .string({ message: 'q is required.' })
    .trim()
    .min(1, { message: 'q is required.' })
    .max(limits.maxQueryLength, {
      message: `q is longer than ${limits.maxQueryLength} characters.`,
    }),
  limit: limitParam,
  contentfilter: z
    .enum(tenorContentFilterSchema.options, {
      message: 'contentfilter must be off, low, medium or high.',
    })
    .default('off'),
});

export const tenorTermsSchema = z.object({ results: z.array(z.string()) });

export const tenorCategoriesParamsSchema = z.object({
  type: z
    .enum(['featured', 'trending'], { message: 'type must be featured or trending.' })
    .default('featured'),
  contentfilter: z
    .enum(tenorContentFilterSchema.options, {
      message: 'contentfilter must be off, low, medium or high.',
    })
    .default('off'),
});

export const tenorCategoriesSchema = z.object({
  tags: z.array(
    z.object({ searchterm: z.string(), path: z.string(), image: z.string(), name: z.string() }),
  ),
});

export const tenorShareParamsSchema = z.object({
  id: z.string({ message: 'id is required.' }).min(1, { message: 'id is required.' }),
  q: z.string().optional(),
});

export const tenorShareSchema = z.object({ status: z.literal('ok'), counted: z.boolean() });
