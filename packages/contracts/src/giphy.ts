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
  banner_image: z.string().optional(),
  banner_url: z.string().optional(),
  profile_url: z.string().optional(),
  username: z.string(),
  display_name: z.string(),
  description: z.string(),
  website_url: z.string().optional(),
  instagram_url: z.string().optional(),
  is_verified: z.boolean(),
  is_public: z.boolean().optional(),
  suppress_chrome: z.boolean().optional(),
});
export type GiphyUser = z.infer<typeof giphyUserSchema>;

/** One item exactly as our `/v1` serialises it (GIPHY wire shape). */
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
  is_sticker: z.union([z.literal(0), z.literal(1)]),
  is_anonymous: z.union([z.literal(0), z.literal(1)]).optional(),
  is_community: z.union([z.literal(0), z.literal(1)]).optional(),
  is_featured: z.union([z.literal(0), z.literal(1)]).optional(),
  is_hidden: z.union([z.literal(0), z.literal(1)]).optional(),
  is_indexable: z.union([z.literal(0), z.literal(1)]).optional(),
  is_preserve_size: z.union([z.literal(0), z.literal(1)]).optional(),
  is_realtime: z.union([z.literal(0), z.literal(1)]).optional(),
  is_removed: z.union([z.literal(0), z.literal(1)]).optional(),
  is_dynamic: z.union([z.literal(0), z.literal(1)]).optional(),
  is_scheduled: z.union([z.literal(0), z.literal(1)]).optional(),
  import_datetime: z.string(),
  trending_datetime: z.string(),
  create_datetime: z.string().optional(),
  update_datetime: z.string().optional(),
  images: imagesSchema,
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

export const listEnvelopeSchema = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), pagination: paginationSchema, meta: metaSchema });
export const singleEnvelopeSchema = <T extends z.ZodType>(item: T) =>
  z.object({ data: item, meta: metaSchema });

export const errorEnvelopeSchema = z.object({ meta: metaSchema });
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

export const subcategorySchema = z.object({ name: z.string(), name_encoded: z.string() });
export type Subcategory = z.infer<typeof subcategorySchema>;

export const categorySchema = z.object({
  name: z.string(),
  name_encoded: z.string(),
  subcategories: z.array(subcategorySchema),
  gif: giphyItemSchema.optional(),
});
export type Category = z.infer<typeof categorySchema>;

/** Limits shared by the API and the UI (spec §9, GIPHY docs §1.4). */
export const limits = {
  pageSize: 25,
  maxLimit: 50,
  maxOffset: 4999,
  maxQueryLength: 50,
  relatedLimit: 15,
  descriptionPreview: 60,
} as const;
