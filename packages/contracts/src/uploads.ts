import { z } from 'zod';
import { sessionUserSchema } from './auth.ts';
import { itemVisibilities } from './item-visibility.ts';

/**
 * Uploads, owned items, API tokens and moderation (`/api/uploads`, `/api/items`, `/api/tokens`,
 * `/api/admin`): one contract for the server's routes and the web's upload, my-uploads, admin
 * and settings pages (docs/uploads.md).
 */

/** What a person may send: the format is sniffed from the bytes, never trusted from the name. */
export const uploadMediaTypes = ['image/gif', 'image/webp', 'image/png', 'image/jpeg'] as const;

/** What an uploaded item may be (animated text is made by Sticky, not uploaded). */
export const uploadItemTypeSchema = z.enum(['gif', 'sticker']);
export type UploadItemType = z.infer<typeof uploadItemTypeSchema>;

export const itemRatingSchema = z.enum(['g', 'pg', 'pg-13', 'r']);
export type ItemRating = z.infer<typeof itemRatingSchema>;

/**
 * Who sees an item (docs/uploads.md, "Visibility"): `public` is listed and searched for everyone
 * signed in; `unlisted` is opened only by its link (page, media, its own id); `private` only by
 * its owner and admins.
 */
export const itemVisibilitySchema = z.enum(itemVisibilities);
export type ItemVisibility = z.infer<typeof itemVisibilitySchema>;

/** Each visibility in words that say who will see it, as /upload, /uploads and /settings show it. */
export const itemVisibilityLabels = {
  public: 'Everyone on this Sticky can find it',
  unlisted: 'Only people you give the link to',
  private: 'Only you',
} as const satisfies Record<ItemVisibility, string>;

/** The words written inside an item's image, as a person corrects them. */
export const captionSchema = z
  .string()
  .trim()
  .max(500, 'Keep the text to 500 characters.')
  .regex(/^[^\p{Cc}]*$/u, 'The text cannot hold control characters.');

const titleSchema = z
  .string()
  .trim()
  .min(1, 'Give it a title.')
  .max(200, 'A title is at most 200 characters.');

/** Tags as chips: each 1–50 characters, at most 30. */
export const uploadTagsSchema = z
  .array(z.string().trim().min(1).max(50, 'A tag is at most 50 characters.'))
  .max(30, 'At most 30 tags.');

/** A category by display name, `Name` or `Parent/Sub`, as the catalog lists them. */
const categorySchema = z.string().trim().max(100, 'A category name is at most 100 characters.');

/** A source link: http(s) only, so it can never run script where it is shown. */
export const sourceUrlSchema = z
  .string()
  .trim()
  .max(2000, 'A source link is at most 2,000 characters.')
  .refine((value) => value === '' || /^https?:\/\/[^\s]+$/i.test(value), {
    message: 'A source link starts with http:// or https://.',
  });

/**
 * The title a file gets when none is given, from its name (`/x/happy-dance_2.gif` → `Happy
 * dance 2`): the upload page proposes it, and uploads and the import CLI fall back to it alike.
 */
export function titleFromFileName(fileName: string): string {
  const name = fileName.split(/[\\/]/).pop() ?? '';
  const base = name.replace(/\.[A-Za-z0-9]{1,5}$/, '');
  const words = base
    .replace(/[-_.+]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200)
    .trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : 'Untitled';
}

/** Display names of the ratings, in order. */
export const itemRatingLabels = {
  g: 'G',
  pg: 'PG',
  'pg-13': 'PG-13',
  r: 'R',
} as const satisfies Record<ItemRating, string>;

/**
 * The text fields of `POST /api/uploads` (multipart/form-data, beside one or more `file`
 * parts). They apply to every file of the request; `tags` is comma-separated. A missing
 * title comes from each file's name; a missing type is `sticker` for a file with
 * transparency, else `gif`.
 */
export const uploadFieldsSchema = z.object({
  title: titleSchema.optional(),
  tags: z.string().max(2000).optional(),
  type: uploadItemTypeSchema.optional(),
  category: categorySchema.optional(),
  rating: itemRatingSchema.optional(),
  source: sourceUrlSchema.optional(),
  /** Missing: the token's default when sent with one, else the instance's (UPLOAD_VISIBILITY). */
  visibility: itemVisibilitySchema.optional(),
});
export type UploadFields = z.infer<typeof uploadFieldsSchema>;

/**
 * Where an upload stands: `processing` (accepted, in the job queue), `ready` (its item is
 * listed), `failed` (refused, with a reason), `hidden` (ready, hidden by an admin).
 */
export const uploadStateSchema = z.enum(['processing', 'ready', 'failed', 'hidden']);
export type UploadState = z.infer<typeof uploadStateSchema>;

/** One file of a `POST /api/uploads`: accepted (with its upload id), or refused with a reason. */
export const uploadReceiptSchema = z.object({
  fileName: z.string(),
  /** Null when the file was refused before it was stored. */
  uploadId: z.string().nullable(),
  /** The item, once known: at once for a duplicate, else after processing. */
  itemId: z.string().nullable(),
  state: uploadStateSchema,
  /** Why the file was refused, in words that say what to change; null otherwise. */
  reason: z.string().nullable(),
  /** True when the same bytes were already an item: that item is answered, no copy is made. */
  isDuplicate: z.boolean(),
  /**
   * A link to share at once (ShareX's result): the item's page, or for a file still processing
   * `/u/{uploadId}`, which leads to it once it is ready. Null for a refused file.
   */
  url: z.string().nullable(),
});
export type UploadReceipt = z.infer<typeof uploadReceiptSchema>;

/** `POST /api/uploads` → 202: one receipt per file, in the order sent. */
export const createUploadsResponseSchema = z.object({
  success: z.literal(true),
  uploads: z.array(uploadReceiptSchema),
});
export type CreateUploadsResponse = z.infer<typeof createUploadsResponseSchema>;

/** The editable metadata of an item. */
export const itemDetailsSchema = z.object({
  title: z.string(),
  tags: z.array(z.string()),
  type: z.enum(['gif', 'sticker', 'text']),
  category: z.string().nullable(),
  rating: itemRatingSchema,
  sourceUrl: z.string(),
  /** The words written inside the image ('' for none): read by Sticky, editable. */
  caption: z.string(),
});
export type ItemDetails = z.infer<typeof itemDetailsSchema>;

/** Who uploaded an item, as admins see it. */
export const uploaderSchema = sessionUserSchema.pick({ id: true, name: true, email: true });
export type Uploader = z.infer<typeof uploaderSchema>;

/** One upload as its owner (and admins) list it. */
export const uploadSchema = z.object({
  id: z.string(),
  itemId: z.string().nullable(),
  state: uploadStateSchema,
  reason: z.string().nullable(),
  fileName: z.string(),
  bytes: z.number().int(),
  createdAt: z.iso.datetime({ offset: true }),
  /** A small animated preview once processed (a media URL); null before. */
  previewUrl: z.string().nullable(),
  /** Its first frame, for people who asked for reduced motion; null before. */
  previewStillUrl: z.string().nullable(),
  details: itemDetailsSchema,
  /** Null until the upload is an item. */
  visibility: itemVisibilitySchema.nullable(),
  /** Only in admin lists. */
  uploader: uploaderSchema.nullable(),
});
export type Upload = z.infer<typeof uploadSchema>;

/** The query of a list read a page at a time, newest first (uploads, reports, audit, blocks). */
export const pageQueryShape = {
  limit: z.coerce.number().int().min(1).max(100).default(50),
  /** Opaque: the `next` of the previous page. */
  cursor: z.string().max(200).optional(),
};

/** `GET /api/uploads` (mine) and `GET /api/admin/uploads` (everyone's). */
export const listUploadsQuerySchema = z.object({
  state: uploadStateSchema.optional(),
  ...pageQueryShape,
});
export type ListUploadsQuery = z.infer<typeof listUploadsQuerySchema>;

export const listUploadsResponseSchema = z.object({
  success: z.literal(true),
  uploads: z.array(uploadSchema),
  /** The cursor of the next page; null on the last. */
  next: z.string().nullable(),
});
export type ListUploadsResponse = z.infer<typeof listUploadsResponseSchema>;

/** `GET /u/{id}`: an upload's link, by its upload id (a UUID). */
export const uploadLinkParamsSchema = z.object({
  id: z.string().regex(/^[0-9a-f-]{36}$/i, 'Not an upload link.'),
});
export type UploadLinkParams = z.infer<typeof uploadLinkParamsSchema>;

/** What the upload page needs to know before sending (limits, and what is used today). */
export const uploadLimitsResponseSchema = z.object({
  success: z.literal(true),
  canUpload: z.boolean(),
  /** Why an admin stopped this person from uploading; null when they may (docs/security.md). */
  banReason: z.string().nullable(),
  maxFileBytes: z.number().int(),
  maxFilesPerRequest: z.number().int(),
  bytesPerDay: z.number().int(),
  itemsPerDay: z.number().int(),
  bytesUsedToday: z.number().int(),
  itemsUsedToday: z.number().int(),
  /** Decoded megapixels (width × height × frames / 1e6) a person's uploads may cost a day. */
  megapixelsPerDay: z.number().int(),
  megapixelsUsedToday: z.number().int(),
  mediaTypes: z.array(z.enum(uploadMediaTypes)),
  /** What an upload that names none gets here (UPLOAD_VISIBILITY): the page's first choice. */
  visibility: itemVisibilitySchema,
});
export type UploadLimitsResponse = z.infer<typeof uploadLimitsResponseSchema>;

/** `GET/PATCH/DELETE /api/items/{id}` */
export const ownedItemParamsSchema = z.object({
  id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'An item id is 1 to 64 letters, digits, "-" or "_".'),
});
export type OwnedItemParams = z.infer<typeof ownedItemParamsSchema>;

/** An item with what its owner and admins manage. */
export const ownedItemSchema = z.object({
  id: z.string(),
  details: itemDetailsSchema,
  visibility: itemVisibilitySchema,
  isHidden: z.boolean(),
  /** Null for imported and starter items. */
  owner: uploaderSchema.nullable(),
  /** What the person asking may do with it. */
  canEdit: z.boolean(),
  canDelete: z.boolean(),
  canHide: z.boolean(),
});
export type OwnedItem = z.infer<typeof ownedItemSchema>;

export const ownedItemResponseSchema = z.object({
  success: z.literal(true),
  item: ownedItemSchema,
});
export type OwnedItemResponse = z.infer<typeof ownedItemResponseSchema>;

/** `PATCH /api/items/{id}`: only the fields sent change; `isHidden` is for admins. */
export const updateItemRequestSchema = z
  .object({
    title: titleSchema,
    tags: uploadTagsSchema,
    type: uploadItemTypeSchema,
    category: categorySchema.nullable(),
    rating: itemRatingSchema,
    sourceUrl: sourceUrlSchema,
    caption: captionSchema,
    visibility: itemVisibilitySchema,
    isHidden: z.boolean(),
  })
  .partial()
  .strict();
export type UpdateItemRequest = z.infer<typeof updateItemRequestSchema>;

/** `DELETE /api/items/{id}` */
export const deleteItemResponseSchema = z.object({ success: z.literal(true), id: z.string() });
export type DeleteItemResponse = z.infer<typeof deleteItemResponseSchema>;

/**
 * What a personal API token may do, chosen when it is made (docs/security.md, "API tokens"):
 * `upload` send files, `items` edit and delete its owner's items, `read` the `/v1`, `/v2` and
 * `/api` reads, `admin` an admin's powers (only an admin may choose it).
 */
export const tokenScopeSchema = z.enum(['upload', 'items', 'read', 'admin']);
export type TokenScope = z.infer<typeof tokenScopeSchema>;

/** A token lives 90 days unless its maker chooses otherwise, a year at most. */
export const tokenLifetimeDays = { default: 90, max: 365 } as const;

/** A personal API token as listed (the secret itself is shown once, when made). */
export const apiTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** What an upload through it gets when it names no visibility. */
  visibility: itemVisibilitySchema,
  createdAt: z.iso.datetime({ offset: true }),
  lastUsedAt: z.iso.datetime({ offset: true }).nullable(),
  scopes: z.array(tokenScopeSchema),
  expiresAt: z.iso.datetime({ offset: true }),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

export const listTokensResponseSchema = z.object({
  success: z.literal(true),
  tokens: z.array(apiTokenSchema),
});
export type ListTokensResponse = z.infer<typeof listTokensResponseSchema>;

/** `POST /api/tokens` */
export const createTokenRequestSchema = z.object({
  name: z.string().trim().min(1, 'Name the token.').max(100, 'A name is at most 100 characters.'),
  scopes: z
    .array(tokenScopeSchema)
    .min(1, 'Choose at least one thing the token may do.')
    .max(tokenScopeSchema.options.length)
    .default(['upload']),
  expiresInDays: z
    .number()
    .int('Give the lifetime in whole days.')
    .min(1, 'A token lives at least one day.')
    .max(tokenLifetimeDays.max, `A token lives at most ${tokenLifetimeDays.max} days.`)
    .default(tokenLifetimeDays.default),
  /** Its uploads' default visibility; `unlisted` unless chosen (docs/uploads.md, "Visibility"). */
  visibility: itemVisibilitySchema.default('unlisted'),
});
export type CreateTokenRequest = z.infer<typeof createTokenRequestSchema>;

export const createTokenResponseSchema = z.object({
  success: z.literal(true),
  token: apiTokenSchema,
  /** `Authorization: Bearer <secret>`; shown once, only its hash is kept. */
  secret: z.string(),
});
export type CreateTokenResponse = z.infer<typeof createTokenResponseSchema>;

/** `DELETE /api/tokens/{id}` */
export const tokenParamsSchema = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) });
export type TokenParams = z.infer<typeof tokenParamsSchema>;

export const deleteTokenResponseSchema = z.object({ success: z.literal(true), id: z.string() });
export type DeleteTokenResponse = z.infer<typeof deleteTokenResponseSchema>;

/** `DELETE /api/tokens`: every token of the person revoked ("Revoke every token"). */
export const revokeTokensResponseSchema = z.object({
  success: z.literal(true),
  revoked: z.number().int().nonnegative(),
});
export type RevokeTokensResponse = z.infer<typeof revokeTokensResponseSchema>;
