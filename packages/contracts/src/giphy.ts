import { z } from 'zod';

/** Content types as the spec's filter and GIPHY's path segment. */
export const contentFilterSchema = z.enum(['gifs', 'stickers', 'text']);
export type ContentFilter = z.infer<typeof contentFilterSchema>;

/** Item types as they appear in `IGif.type` and in the detail route `/:type/:slug`. */
export const itemTypeSchema = z.enum(['gif', 'sticker', 'text']);
export type ItemType = z.infer<typeof itemTypeSchema>;

export const ratingSchema = z.enum(['g', 'pg', 'pg-13', 'r']);
export type Rating = z.infer<typeof ratingSchema>;

/** GIPHY sends every rendition number as a string on the wire. */
const numericString = z.string().regex(/^\d+$/);

export const renditionSchema = z.object({
  url: z.string().optional(),
  width: numericString,
  height: numericString,
  size: numericString.optional(),
  frames: numericString.optional(),
  hash: z.string().optional(),
  webp: z.string().optional(),
  webp_size: numericString.optional(),
  mp4: z.string().optional(),
  mp4_size: numericString.optional(),
});
export type Rendition = z.infer<typeof renditionSchema>;

export const renditionNames = [
  'original',
  'original_still',
  'fixed_width',
  'fixed_width_still',
  'fixed_width_small',
  'fixed_height',
  'fixed_height_still',
  'downsized',
  'preview_gif',
] as const;
export type RenditionName = (typeof renditionNames)[number];

export const imagesSchema = z
  .object({
    original: renditionSchema,
    fixed_width: renditionSchema,
  })
  .catchall(renditionSchema);
export type Images = z.infer<typeof imagesSchema>;

export const giphyUserSchema = z.object({
  avatar_url: z.string(),
  banner_image: z.string(),
  banner_url: z.string(),
  profile_url: z.string(),
  username: z.string(),
  display_name: z.string(),
  description: z.string(),
  instagram_url: z.string(),
  website_url: z.string(),
  is_verified: z.boolean(),
});
export type GiphyUser = z.infer<typeof giphyUserSchema>;

/** GIPHY sends its flags as 0/1 on the wire; the SDK turns them into booleans. */
const flag = z.union([z.literal(0), z.literal(1)]);

/** `YYYY-MM-DD HH:MM:SS` (UTC), or GIPHY's `0000-00-00 00:00:00` for "never". */
export const giphyDateTimeSchema = z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
export const neverDateTime = '0000-00-00 00:00:00';

/**
 * One item as our `/v1` serializes it (GIPHY's wire shape; docs/api.md, "Envelopes"). There is no
 * `analytics_response_payload` on purpose: without it the SDK sends no pingbacks to GIPHY.
 */
export const giphyItemSchema = z.object({
  type: itemTypeSchema,
  id: z.string(),
  url: z.string(),
  slug: z.string(),
  bitly_gif_url: z.string(),
  bitly_url: z.string(),
  embed_url: z.string(),
  username: z.string(),
  source: z.string(),
  title: z.string(),
  rating: ratingSchema,
  content_url: z.string(),
  tags: z.array(z.string()),
  source_tld: z.string(),
  source_post_url: z.string(),
  alt_text: z.string(),
  is_sticker: flag,
  is_indexable: flag,
  is_dynamic: flag,
  is_hidden: flag,
  is_removed: flag,
  is_community: flag,
  is_anonymous: flag,
  is_featured: flag,
  is_realtime: flag,
  is_nsfw: flag,
  import_datetime: giphyDateTimeSchema,
  trending_datetime: giphyDateTimeSchema,
  create_datetime: giphyDateTimeSchema,
  update_datetime: giphyDateTimeSchema,
  images: imagesSchema,
  /** Omitted when the item has no creator (GIPHY omits it for anonymous uploads too). */
  user: giphyUserSchema.optional(),
});
export type GiphyItem = z.infer<typeof giphyItemSchema>;

export const metaSchema = z.object({
  status: z.number().int(),
  msg: z.string(),
  response_id: z.string(),
});
export type Meta = z.infer<typeof metaSchema>;

export const paginationSchema = z.object({
  total_count: z.number().int().nonnegative(),
  count: z.number().int().nonnegative(),
  offset: z.number().int().nonnegative(),
});
export type Pagination = z.infer<typeof paginationSchema>;

/** `trending/searches`: strings, no pagination. */
export const trendingSearchesEnvelopeSchema = z.object({
  data: z.array(z.string()),
  meta: metaSchema,
});
export type TrendingSearchesEnvelope = z.infer<typeof trendingSearchesEnvelopeSchema>;

/** `gifs/search/tags` (autocomplete). */
export const tagSuggestionSchema = z.object({ name: z.string() });
export type TagSuggestion = z.infer<typeof tagSuggestionSchema>;

export const listEnvelopeSchema = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), pagination: paginationSchema, meta: metaSchema });
export const singleEnvelopeSchema = <T extends z.ZodType>(item: T) =>
  z.object({ data: item, meta: metaSchema });

export const errorEnvelopeSchema = z.object({ meta: metaSchema });
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

export const subcategorySchema = z.object({ name: z.string(), name_encoded: z.string() });
export type Subcategory = z.infer<typeof subcategorySchema>;

/** `gifs/categories` and `gifs/categories/{category}`: not normalized by the SDK. */
export const categorySchema = z.object({
  name: z.string(),
  name_encoded: z.string(),
  subcategories: z.array(subcategorySchema),
  gif: giphyItemSchema.optional(),
});
export type Category = z.infer<typeof categorySchema>;

/** Limits shared by the API and the UI (docs/api.md, "Pagination"). */
export const limits = {
  pageSize: 25,
  maxLimit: 50,
  maxOffset: 4999,
  maxQueryLength: 50,
  relatedLimit: 15,
  descriptionPreview: 60,
} as const;

/** The envelopes `/v1` answers with, per kind of data. */
export const itemListEnvelopeSchema = listEnvelopeSchema(giphyItemSchema);
export const singleItemEnvelopeSchema = singleEnvelopeSchema(giphyItemSchema);
export const tagSuggestionListEnvelopeSchema = listEnvelopeSchema(tagSuggestionSchema);
export const categoryListEnvelopeSchema = listEnvelopeSchema(categorySchema);
