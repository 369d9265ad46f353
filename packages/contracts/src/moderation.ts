import { z } from 'zod';
import { pageQueryShape, uploaderSchema } from './uploads.ts';

/**
 * Moderation (docs/security.md, "Moderation"): reports of items, the block list of file
 * hashes, upload bans, the audit list of admin actions and the categories admins keep. One
 * contract for the server's `/api/items/{id}/reports` and `/api/admin/*` routes and the web's
 * item and admin pages.
 */

/** What an upload of a blocked file is told: nothing about the item it matches. */
export const blockedFileReason = "This file can't be uploaded here.";

/** Why an item is reported, in the order the report dialog offers them. */
export const reportReasonSchema = z.enum([
  'spam',
  'harassment',
  'sexual',
  'violence',
  'copyright',
  'other',
]);
export type ReportReason = z.infer<typeof reportReasonSchema>;

/** Display names of the report reasons. */
export const reportReasonLabels = {
  spam: 'Spam',
  harassment: 'Harassment or hate',
  sexual: 'Sexual content',
  violence: 'Violence',
  copyright: 'Copyright',
  other: 'Something else',
} as const satisfies Record<ReportReason, string>;

export const reportNoteMaxLength = 500;

/** `POST /api/items/{id}/reports` */
export const createReportRequestSchema = z
  .object({
    reason: reportReasonSchema,
    note: z
      .string()
      .trim()
      .max(reportNoteMaxLength, `A note is at most ${reportNoteMaxLength} characters.`)
      .default(''),
  })
  .strict();
export type CreateReportRequest = z.input<typeof createReportRequestSchema>;

export const reportParamsSchema = z.object({
  id: z.string().regex(/^[0-9a-f-]{36}$/i, 'Not a report id.'),
});
export type ReportParams = z.infer<typeof reportParamsSchema>;

export const reportStateSchema = z.enum(['open', 'resolved', 'dismissed']);
export type ReportState = z.infer<typeof reportStateSchema>;

/** A report as its reporter is told it was taken. */
export const createReportResponseSchema = z.object({
  success: z.literal(true),
  report: z.object({ id: z.string(), state: reportStateSchema }),
});
export type CreateReportResponse = z.infer<typeof createReportResponseSchema>;

/** A report as admins list it. */
export const reportSchema = z.object({
  id: z.string(),
  itemId: z.string(),
  itemTitle: z.string(),
  /** The item's page; null for items without one (animated text). */
  itemUrl: z.string().nullable(),
  isItemHidden: z.boolean(),
  reporter: uploaderSchema,
  reason: reportReasonSchema,
  note: z.string(),
  state: reportStateSchema,
  createdAt: z.iso.datetime({ offset: true }),
});
export type Report = z.infer<typeof reportSchema>;

export const listReportsQuerySchema = z.object({
  state: reportStateSchema.default('open'),
  ...pageQueryShape,
});
export type ListReportsQuery = z.infer<typeof listReportsQuerySchema>;

export const listReportsResponseSchema = z.object({
  success: z.literal(true),
  reports: z.array(reportSchema),
  next: z.string().nullable(),
});
export type ListReportsResponse = z.infer<typeof listReportsResponseSchema>;

/** `PATCH /api/admin/reports/{id}`: close an open report. */
export const closeReportRequestSchema = z
  .object({ state: z.enum(['resolved', 'dismissed']) })
  .strict();
export type CloseReportRequest = z.infer<typeof closeReportRequestSchema>;

export const closeReportResponseSchema = z.object({
  success: z.literal(true),
  id: z.string(),
  state: reportStateSchema,
});
export type CloseReportResponse = z.infer<typeof closeReportResponseSchema>;

/** What an admin did, as the audit list names it. */
export const auditActionSchema = z.enum([
  'item.hide',
  'item.unhide',
  'item.delete',
  'hash.block',
  'hash.unblock',
  'uploader.ban',
  'uploader.unban',
  'report.resolve',
  'report.dismiss',
  'category.create',
  'category.rename',
  'category.delete',
]);
export type AuditAction = z.infer<typeof auditActionSchema>;

export const auditEventSchema = z.object({
  id: z.string(),
  /** Who did it, as named when they did. */
  actorName: z.string(),
  action: auditActionSchema,
  target: z.string(),
  detail: z.string(),
  createdAt: z.iso.datetime({ offset: true }),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;

export const listAuditQuerySchema = z.object(pageQueryShape);
export type ListAuditQuery = z.infer<typeof listAuditQuerySchema>;

export const listAuditResponseSchema = z.object({
  success: z.literal(true),
  events: z.array(auditEventSchema),
  next: z.string().nullable(),
});
export type ListAuditResponse = z.infer<typeof listAuditResponseSchema>;

/** A sha256 in hex, as the block list keeps it. */
export const blockedHashParamsSchema = z.object({
  hash: z.string().regex(/^[0-9a-f]{64}$/, 'hash: a sha256, 64 lowercase hexadecimal digits.'),
});
export type BlockedHashParams = z.infer<typeof blockedHashParamsSchema>;

export const blockedHashSchema = z.object({
  sha256: z.string(),
  /** The item it came from (it may be gone since). */
  itemId: z.string().nullable(),
  createdAt: z.iso.datetime({ offset: true }),
});
export type BlockedHash = z.infer<typeof blockedHashSchema>;

export const listBlockedHashesResponseSchema = z.object({
  success: z.literal(true),
  hashes: z.array(blockedHashSchema),
  next: z.string().nullable(),
});
export type ListBlockedHashesResponse = z.infer<typeof listBlockedHashesResponseSchema>;

export const unblockHashResponseSchema = z.object({ success: z.literal(true), sha256: z.string() });
export type UnblockHashResponse = z.infer<typeof unblockHashResponseSchema>;

/** `PUT /api/admin/upload-bans/{userId}`: stop a person from uploading. */
export const uploadBanParamsSchema = z.object({
  userId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Not a person id.'),
});
export type UploadBanParams = z.infer<typeof uploadBanParamsSchema>;

export const uploadBanReasonMaxLength = 500;

export const createUploadBanRequestSchema = z
  .object({
    reason: z
      .string()
      .trim()
      .min(1, 'Say why: the person sees it on /upload.')
      .max(uploadBanReasonMaxLength, `A reason is at most ${uploadBanReasonMaxLength} characters.`),
  })
  .strict();
export type CreateUploadBanRequest = z.infer<typeof createUploadBanRequestSchema>;

export const uploadBanSchema = z.object({
  person: uploaderSchema,
  reason: z.string(),
  createdAt: z.iso.datetime({ offset: true }),
});
export type UploadBan = z.infer<typeof uploadBanSchema>;

export const uploadBanResponseSchema = z.object({ success: z.literal(true), ban: uploadBanSchema });
export type UploadBanResponse = z.infer<typeof uploadBanResponseSchema>;

export const listUploadBansResponseSchema = z.object({
  success: z.literal(true),
  bans: z.array(uploadBanSchema),
});
export type ListUploadBansResponse = z.infer<typeof listUploadBansResponseSchema>;

export const liftUploadBanResponseSchema = z.object({
  success: z.literal(true),
  userId: z.string(),
});
export type LiftUploadBanResponse = z.infer<typeof liftUploadBanResponseSchema>;

/** A category as admins manage it and uploaders choose it. */
export const managedCategorySchema = z.object({
  id: z.number().int(),
  /** `Name` or `Parent/Sub`: what an upload's or an edit's `category` names. */
  path: z.string(),
  name: z.string(),
  parentId: z.number().int().nullable(),
  /** Items filed under it directly. */
  itemCount: z.number().int(),
});
export type ManagedCategory = z.infer<typeof managedCategorySchema>;

export const listManagedCategoriesResponseSchema = z.object({
  success: z.literal(true),
  categories: z.array(managedCategorySchema),
});
export type ListManagedCategoriesResponse = z.infer<typeof listManagedCategoriesResponseSchema>;

export const categoryNameMaxLength = 100;

const categoryNameSchema = z
  .string()
  .trim()
  .min(1, 'name: give the category a name.')
  .max(categoryNameMaxLength, `name: at most ${categoryNameMaxLength} characters.`)
  .refine((value) => !value.includes('/'), { message: 'name: no "/" in a name.' });

/** `POST /api/admin/categories` */
export const createCategoryRequestSchema = z
  .object({ name: categoryNameSchema, parentId: z.number().int().positive().optional() })
  .strict();
export type CreateCategoryRequest = z.infer<typeof createCategoryRequestSchema>;

/** `PATCH /api/admin/categories/{id}` */
export const renameCategoryRequestSchema = z.object({ name: categoryNameSchema }).strict();
export type RenameCategoryRequest = z.infer<typeof renameCategoryRequestSchema>;

export const categoryParamsSchema = z.object({ id: z.coerce.number().int().positive() });
export type CategoryParams = z.infer<typeof categoryParamsSchema>;

export const managedCategoryResponseSchema = z.object({
  success: z.literal(true),
  category: managedCategorySchema,
});
export type ManagedCategoryResponse = z.infer<typeof managedCategoryResponseSchema>;

export const deleteCategoryResponseSchema = z.object({
  success: z.literal(true),
  id: z.number().int(),
});
export type DeleteCategoryResponse = z.infer<typeof deleteCategoryResponseSchema>;
