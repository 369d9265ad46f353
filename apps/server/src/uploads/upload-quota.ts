import { formatBytes } from '@sticky/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { AppConfig } from '../config/env.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { items, uploads } from '../db/schema.ts';
import { AppError } from '../lib/app-error.ts';
import type { Transaction } from '../db/transaction.ts';

type Reader = DatabaseHandle['db'] | Transaction;

const startOfTodayUtc = sql`(date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')`;

/** Decoded megapixels a person's uploads of today (UTC) have cost (docs/uploads.md, "Receiving"). */
export async function readMegapixelsUsedToday(db: Reader, userId: string): Promise<number> {
  const [row] = await db
    .select({ megapixels: sql<number>`coalesce(sum(${uploads.megapixels}), 0)::float8` })
    .from(uploads)
    .where(and(eq(uploads.userId, userId), sql`${uploads.createdAt} >= ${startOfTodayUtc}`));
  return Number(row?.megapixels ?? 0);
}

/** What is left of a person's decoding allowance today, for the decoder to check a file against. */
export async function readMegapixelAllowance(
  deps: { config: AppConfig; database: DatabaseHandle },
  userId: string,
): Promise<{ left: number; perDay: number }> {
  const perDay = deps.config.uploads.megapixelsPerDay;
  const used = await readMegapixelsUsedToday(deps.database.db, userId);
  return { left: Math.max(0, perDay - used), perDay };
}

/** What decoding an item's file cost: width × height × frames, in megapixels. */
export async function readDecodedMegapixels(db: Reader, itemId: string): Promise<number> {
  const [row] = await db
    .select({
      megapixels: sql<number>`(${items.width}::float8 * ${items.height} * ${items.frames}) / 1e6`,
    })
    .from(items)
    .where(eq(items.id, itemId))
    .limit(1);
  return Number(row?.megapixels ?? 0);
}

/**
 * Where a person's next upload job goes in the queue: after as many of their own as are still
 * processing. pg-boss takes higher priorities first, so everyone's first waiting file goes
 * before anyone's second: round-robin by person (docs/uploads.md, "Processing").
 */
export async function readQueuePriority(tx: Transaction, userId: string): Promise<number> {
  const [row] = await tx
    .select({ waiting: sql<number>`count(*)::int` })
    .from(uploads)
    .where(and(eq(uploads.userId, userId), eq(uploads.state, 'processing')));
  return -Number(row?.waiting ?? 0);
}

/**
 * Refuses a request whose declared size (Content-Length) is already over what is left of the
 * person's bytes today, before a byte of its body is read (docs/uploads.md, "Receiving"). The
 * form's own bytes are allowed for, so only a request that cannot fit is refused here.
 */
export async function refuseOverDeclaredSize(
  deps: { config: AppConfig; database: DatabaseHandle },
  userId: string,
  declaredBytes: number,
  formOverheadBytes: number,
): Promise<void> {
  if (!(declaredBytes > formOverheadBytes)) return;
  const { bytesPerDay } = deps.config.uploads;
  const [row] = await deps.database.db
    .select({ bytes: sql<number>`coalesce(sum(${uploads.bytes}), 0)::bigint` })
    .from(uploads)
    .where(and(eq(uploads.userId, userId), sql`${uploads.createdAt} >= ${startOfTodayUtc}`));
  const left = Math.max(0, bytesPerDay - Number(row?.bytes ?? 0));
  if (declaredBytes - formOverheadBytes <= left) return;
  throw new AppError(
    'rate_limited',
    `This request is ${formatBytes(declaredBytes)}, more than is left of today's upload limit (${formatBytes(left)} of ${formatBytes(bytesPerDay)}). Send a smaller file, or wait: the limit resets at midnight UTC.`,
  );
}
