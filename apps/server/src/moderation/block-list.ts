import type { ListBlockedHashesResponse } from '@sticky/contracts';
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Transaction } from '../db/transaction.ts';
import { withTransaction } from '../db/transaction.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { blockedHashes, items, uploads } from '../db/schema.ts';
import { AppError } from '../lib/app-error.ts';
import { recordAuditEvent } from './audit-log.ts';
import type { Actor } from './audit-log.ts';

type Reader = DatabaseHandle['db'] | Transaction;

/**
 * Puts an item's bytes on the block list (docs/security.md, "Moderation"): its stored
 * original's hash, and the hash of every file that was received for it, since an upload is
 * stripped of metadata before it is hashed (uploads-service.ts) and the same file sent again
 * must be refused whatever the stripping makes of it. Run in the transaction that hides or
 * deletes the item, before a deletion takes its uploads' rows with it.
 */
export async function blockItemHashes(tx: Transaction, actor: Actor, itemId: string) {
  const [item] = await tx
    .select({ sha256: items.sha256 })
    .from(items)
    .where(eq(items.id, itemId))
    .limit(1);
  const received = await tx
    .selectDistinct({ sha256: uploads.receivedSha256 })
    .from(uploads)
    .where(and(eq(uploads.itemId, itemId), isNotNull(uploads.receivedSha256)));
  const hashes = [
    ...new Set([item?.sha256, ...received.map((row) => row.sha256)].filter(Boolean)),
  ] as string[];
  if (hashes.length === 0) return;
  const added = await tx
    .insert(blockedHashes)
    .values(hashes.map((sha256) => ({ sha256, itemId, blockedBy: actor.id })))
    .onConflictDoNothing()
    .returning({ sha256: blockedHashes.sha256 });
  for (const row of added) {
    await recordAuditEvent(tx, actor, {
      action: 'hash.block',
      target: row.sha256,
      detail: `from item ${itemId}`,
    });
  }
}

/** Whether any of these hashes is on the block list. */
export async function isAnyHashBlocked(db: Reader, hashes: readonly string[]): Promise<boolean> {
  if (hashes.length === 0) return false;
  const [row] = await db
    .select({ sha256: blockedHashes.sha256 })
    .from(blockedHashes)
    .where(inArray(blockedHashes.sha256, [...hashes]))
    .limit(1);
  return row !== undefined;
}

/** The block list, newest first (admins); the cursor is the last hash of the previous page. */
export async function listBlockedHashes(
  database: DatabaseHandle,
  query: { limit: number; cursor?: string },
): Promise<ListBlockedHashesResponse> {
  if (query.cursor !== undefined && !/^[0-9a-f]{64}$/.test(query.cursor)) {
    throw new AppError(
      'bad_request',
      'cursor: not a cursor this server gave; start from the first page.',
    );
  }
  // Hashes blocked together share a time: the hash orders them within it.
  const after = query.cursor
    ? sql`(b.created_at, b.sha256) < (SELECT created_at, sha256 FROM blocked_hashes WHERE sha256 = ${query.cursor})`
    : sql`TRUE`;
  const result = await database.db.execute<{
    sha256: string;
    item_id: string | null;
    created_at: Date | string;
  }>(sql`
    SELECT b.sha256, b.item_id, b.created_at FROM blocked_hashes b
    WHERE ${after}
    ORDER BY b.created_at DESC, b.sha256 DESC
    LIMIT ${query.limit + 1}`);
  const page = result.rows.slice(0, query.limit);
  return {
    success: true,
    hashes: page.map((row) => ({
      sha256: row.sha256,
      itemId: row.item_id,
      createdAt: new Date(row.created_at).toISOString(),
    })),
    next: result.rows.length > query.limit ? page.at(-1)!.sha256 : null,
  };
}

/** Takes a hash off the block list: the same file may be uploaded again. */
export async function unblockHash(
  database: DatabaseHandle,
  actor: Actor,
  sha256: string,
): Promise<void> {
  await withTransaction(database, async ({ tx }) => {
    const removed = await tx
      .delete(blockedHashes)
      .where(eq(blockedHashes.sha256, sha256))
      .returning({ itemId: blockedHashes.itemId });
    if (removed.length === 0) {
      throw new AppError('not_found', 'This hash is not on the block list.');
    }
    await recordAuditEvent(tx, actor, {
      action: 'hash.unblock',
      target: sha256,
      detail: removed[0]!.itemId ? `from item ${removed[0]!.itemId}` : '',
    });
  });
}
