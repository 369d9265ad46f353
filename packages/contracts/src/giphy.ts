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
  /**
   * Ours, beside GIPHY's fields: WebM with an alpha channel, the video of a sticker or animated
   * text (H.264 has no alpha, so those get no `mp4`). docs/api.md, "Renditions".
   */
  webm: z.string().optional(),
  webm_size: numericString.optional(),
});
export type Rendition = z.infer<typeof renditionSchema>;

/**
 * GIPHY's rendition names that every `/v1` item carries (docs/api.md, "Renditions"): one not made
 * yet is answered with the nearest one that is, so none is ever missing.
 */
export const renditionNames = [
  'original',
  'original_still',
  'original_mp4',
  'fixed_width',
  'fixed_width_still',
  'fixed_width_downsampled',
  'fixed_width_small',
  'fixed_width_small_still',
  'fixed_height',
  'fixed_height_still',
  'fixed_height_downsampled',
  'fixed_height_small',
  'fixed_height_small_still',
  'downsized',
  'downsized_still',
  'downsized_medium',
  'downsized_large',
  'downsized_small',
  'preview',
  'preview_gif',
  'preview_webp',
  'looping',
] as const;
export type RenditionName = (typeof renditionNames)[number];

/**
 * Where a `/v1` slot looks when its own rendition is not made yet (it is made by a job after
 * the item appears), nearest first; the slot then describes the file it points at.
 * docs/api.md, "Renditions".
 */
export const renditionFallbacks: Record<RenditionName, readonly RenditionName[]> = {
  original: [],
  original_still: [],
  original_mp4: ['downsized_small', 'fixed_height', 'fixed_width'],
  fixed_width: ['fixed_height', 'original'],
  fixed_width_still: ['fixed_height_still', 'original_still'],
  fixed_width_downsampled: ['fixed_width', 'fixed_height'],
  fixed_width_small: ['fixed_width', 'fixed_height_small', 'original'],
  fixed_width_small_still: ['fixed_width_still', 'original_still'],
  fixed_height: ['fixed_width', 'original'],
  fixed_height_still: ['fixed_width_still', 'original_still'],
  fixed_height_downsampled: ['fixed_height', 'fixed_width'],
  fixed_height_small: ['fixed_height', 'fixed_width_small', 'original'],
  fixed_height_small_still: ['fixed_height_still', 'original_still'],
  downsized: ['original'],
  downsized_still: ['original_still'],
  downsized_medium: ['downsized', 'original'],
  downsized_large: ['downsized', 'original'],
  downsized_small: ['original_mp4', 'fixed_height', 'fixed_width'],
  preview: ['fixed_width_small', 'fixed_width'],
  preview_gif: ['fixed_width_small', 'fixed_width'],
  preview_webp: ['preview_gif', 'fixed_width_small', 'fixed_width'],
  looping: ['original_mp4', 'fixed_height', 'fixed_width'],
};

/**
 * Renditions of our own for Tenor's formats (docs/api.md, "/v2 (Tenor)"): `tiny` about 220 px
 * wide, `nano` about 90 px high. Stored beside GIPHY's, never sent in `/v1`.
 */
export const extraRenditionNames = ['tiny', 'nano'] as const;
export type ExtraRenditionName = (typeof extraRenditionNames)[number];

/** Every name a stored rendition (one row per name and format) can have. */
export type StoredRenditionName = RenditionName | ExtraRenditionName;

/** File formats of stored renditions; a file's extension names its format (`jpeg` is `.jpg`). */
export const renditionFormats = ['gif', 'webp', 'png', 'jpeg', 'mp4', 'webm'] as const;
export type RenditionFormat = (typeof renditionFormats)[number];

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
  /** The item's own alt text, else its title and then its caption (docs/catalog.md, "Captions"). */
  alt_text: z.string(),
  /** Sticky's: the words written inside the image ('' for none), read or edited. */
  caption: z.string(),
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
  /**
   * GIPHY's pingback URLs, on our server (`/v1/pingback_simple`): a client that pings them
   * counts what a signed-in person did (docs/api.md, "Pingbacks").
   */
  analytics: z
    .object({
      onload: z.object({ url: z.string() }),
      onclick: z.object({ url: z.string() }),
      onsent: z.object({ url: z.string() }),
    })
    .optional(),
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

/** What a pingback reports (GIPHY's `action_type`). */
export const pingbackActionSchema = z.enum(['SEEN', 'CLICK', 'SENT']);
export type PingbackAction = z.infer<typeof pingbackActionSchema>;

/** `/v1/pingback_simple`: whether it counted (a signed-in person, once a day per item and kind). */
export const pingbackEnvelopeSchema = z.object({
  data: z.object({ counted: z.boolean() }),
  meta: metaSchema,
});

/** GIPHY's v2 pagination (`/v2/emoji`): the next page starts at `next_cursor`. */
export const cursorPaginationSchema = z.object({
  count: z.number().int().nonnegative(),
  offset: z.number().int().nonnegative(),
  next_cursor: z.number().int().nonnegative(),
});
export const cursorItemListEnvelopeSchema = z.object({
  data: z.array(giphyItemSchema),
  pagination: cursorPaginationSchema,
  meta: metaSchema,
});
/** `/v2/emoji/{id}/variations`: items, no pagination. */
export const plainItemListEnvelopeSchema = z.object({
  data: z.array(giphyItemSchema),
  meta: metaSchema,
});
export const randomIdEnvelopeSchema = singleEnvelopeSchema(z.object({ random_id: z.string() }));
/** `tags/related/{term}`: `{data: [{name}], meta}`. */
export const relatedTagsEnvelopeSchema = z.object({
  data: z.array(tagSuggestionSchema),
  meta: metaSchema,
});

/** A creator as GIPHY's channel (`channels/search`; not normalized by the SDK). */
export const giphyChannelSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  display_name: z.string(),
  parent: z.null(),
  slug: z.string(),
  type: z.literal('community'),
  content_type: z.literal('gif'),
  user: giphyUserSchema,
  banner_image: z.string(),
  short_display_name: z.string(),
  description: z.string(),
  metadata_description: z.string(),
  has_children: z.boolean(),
  is_visible: z.boolean(),
  is_private: z.boolean(),
  is_live: z.boolean(),
  featured_gif: giphyItemSchema.optional(),
  tags: z.array(z.object({ id: z.number().int(), channel: z.number().int(), tag: z.string() })),
});
export type GiphyChannel = z.infer<typeof giphyChannelSchema>;
export const channelListEnvelopeSchema = listEnvelopeSchema(giphyChannelSchema);
