import { z } from 'zod';

/**
 * `GET /oembed` (oEmbed 1.0, https://oembed.com): what chat apps and Mastodon ask to show a
 * Sticky link (docs/api.md, "Link previews").
 */
export const oembedQuerySchema = z.object({
  url: z.string().min(1).max(2000).meta({ description: 'An item page of this Sticky.' }),
  format: z
    .enum(['json', 'xml'])
    .default('json')
    .meta({ description: 'Only json is served; xml answers 501 as oEmbed says.' }),
  maxwidth: z.coerce.number().int().min(1).max(10_000).optional(),
  maxheight: z.coerce.number().int().min(1).max(10_000).optional(),
});
export type OembedQuery = z.infer<typeof oembedQuerySchema>;

/** A GIF, sticker or animated text is an oEmbed `photo`: the GIF itself, which every client plays. */
export const oembedResponseSchema = z.object({
  version: z.literal('1.0'),
  type: z.literal('photo'),
  title: z.string(),
  url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  provider_name: z.string(),
  provider_url: z.string(),
  author_name: z.string().optional(),
  author_url: z.string().optional(),
  cache_age: z.number().int(),
});
export type OembedResponse = z.infer<typeof oembedResponseSchema>;
