import { z } from 'zod';
import { giphyItemSchema } from './giphy.ts';
import { ownedItemParamsSchema } from './uploads.ts';

/**
 * `GET /api/links/{id}`: where an upload's link (`/u/{id}`) stands, for the page that waits
 * on it (docs/uploads.md, "Links"). A refused, hidden or deleted upload is 404.
 */
export const uploadLinkStateResponseSchema = z.discriminatedUnion('state', [
  z.object({ success: z.literal(true), state: z.literal('processing') }),
  z.object({
    success: z.literal(true),
    state: z.literal('ready'),
    /** The item page's path, `/:type/:slug`. */
    path: z.string(),
  }),
]);
export type UploadLinkStateResponse = z.infer<typeof uploadLinkStateResponseSchema>;

/** `GET /api/shared/{id}`: an item's id, as its page's slug ends with it. */
export const sharedItemParamsSchema = ownedItemParamsSchema;

/**
 * `GET /api/shared/{id}`: a public or unlisted item as a signed-out person sees it when the
 * operator set PUBLIC_LINKS (docs/uploads.md, "Links"); 404 otherwise, and always for private
 * or hidden items.
 */
export const sharedItemResponseSchema = z.object({
  success: z.literal(true),
  item: giphyItemSchema,
});
export type SharedItemResponse = z.infer<typeof sharedItemResponseSchema>;
