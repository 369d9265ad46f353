import { z } from 'zod';

/** Days the overview's daily figures cover: today (UTC) and the 29 before. */
export const overviewDays = 30;

/** One UTC day's count; every day of the window is listed, with 0 when nothing happened. */
export const dayCountSchema = z.object({
  day: z.iso.date(),
  count: z.number().int().nonnegative(),
});
export type DayCount = z.infer<typeof dayCountSchema>;

/** A normalized search phrase and how many people searched it over the window. */
export const searchPhraseCountSchema = z.object({
  query: z.string(),
  count: z.number().int().nonnegative(),
});
export type SearchPhraseCount = z.infer<typeof searchPhraseCountSchema>;

export const overviewJobQueueSchema = z.object({
  queue: z.string(),
  /** Jobs waiting to run (created, or waiting to be retried). */
  waiting: z.number().int().nonnegative(),
  /** Jobs running now, in any process. */
  active: z.number().int().nonnegative(),
  /** Seconds since the oldest unfinished job of the queue was made. */
  oldestAgeSeconds: z.number().nonnegative(),
});
export type OverviewJobQueue = z.infer<typeof overviewJobQueueSchema>;

const healthStateSchema = z.enum(['ok', 'unreachable']);

/**
 * `GET /api/admin/overview`: how the instance is doing at a glance (docs/operations.md, "Admin
 * overview"). Admins only.
 */
export const adminOverviewResponseSchema = z.object({
  /** Files received per UTC day (uploads and imports), oldest first. */
  uploadsPerDay: z.array(dayCountSchema),
  /** Searches per UTC day (each person once per phrase and day), oldest first. */
  searchesPerDay: z.array(dayCountSchema),
  /** The phrases most people searched over the window, most first. */
  topSearches: z.array(searchPhraseCountSchema),
  /** The phrases that found nothing over the window, most searched first: what the catalog lacks. */
  missedSearches: z.array(searchPhraseCountSchema),
  storage: z.object({
    /** Bytes of the stored originals, each file once. */
    originalBytes: z.number().int().nonnegative(),
    /** Bytes of every other rendition, each file once. */
    renditionBytes: z.number().int().nonnegative(),
    /** When these sums were read (they are kept a few minutes). */
    readAt: z.iso.datetime({ offset: true }),
  }),
  jobQueues: z.array(overviewJobQueueSchema),
  health: z.object({
    database: z.object({
      state: healthStateSchema,
      /** Round trip of a `SELECT 1`, in milliseconds; null when it did not answer. */
      latencyMs: z.number().nonnegative().nullable(),
    }),
    storage: z.object({
      state: healthStateSchema,
      /** The local disk (DATA_DIR/media) or an S3-compatible bucket. */
      kind: z.enum(['local', 's3']),
    }),
  }),
});
export type AdminOverviewResponse = z.infer<typeof adminOverviewResponseSchema>;
