import type { UploadBan } from '@sticky/contracts';
import { desc, eq } from 'drizzle-orm';
import { withTransaction } from '../db/transaction.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { uploadBans, users } from '../db/schema.ts';
import { AppError } from '../lib/app-error.ts';
import { recordAuditEvent } from './audit-log.ts';
import type { Actor } from './audit-log.ts';

/** Why an admin stopped this person from uploading; undefined when they may. */
export async function findUploadBanReason(
  database: DatabaseHandle,
  userId: string,
): Promise<string | undefined> {
  const [row] = await database.db
    .select({ reason: uploadBans.reason })
    .from(uploadBans)
    .where(eq(uploadBans.userId, userId))
    .limit(1);
  return row?.reason;
}

/** What a banned person is told, on /upload and by the upload API (403). */
export function describeUploadBan(reason: string): string {
  return `An admin has stopped your uploads: ${reason}`;
}

/** Refuses an upload by a person an admin stopped, with the admin's reason. */
export async function ensureNotBannedFromUploads(
  database: DatabaseHandle,
  userId: string,
): Promise<void> {
  const reason = await findUploadBanReason(database, userId);
  if (reason !== undefined) throw new AppError('forbidden', describeUploadBan(reason));
}

const selectBan = {
  userId: uploadBans.userId,
  reason: uploadBans.reason,
  createdAt: uploadBans.createdAt,
  name: users.name,
  email: users.email,
};

function toUploadBan(row: {
  userId: string;
  reason: string;
  createdAt: Date;
  name: string;
  email: string;
}): UploadBan {
  return {
    person: { id: row.userId, name: row.name, email: row.email },
    reason: row.reason,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Stops a person from uploading (or changes the reason they are given). */
export async function banUploader(
  database: DatabaseHandle,
  actor: Actor,
  userId: string,
  reason: string,
): Promise<UploadBan> {
  return withTransaction(database, async ({ tx }) => {
    const [person] = await tx
      .select({ id: users.id, name: users.name, email: users.email })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    if (!person) throw new AppError('not_found', 'There is no person with this id.');
    if (person.id === actor.id) {
      throw new AppError('bad_request', 'You cannot stop your own uploads.');
    }
    const [row] = await tx
      .insert(uploadBans)
      .values({ userId, reason, bannedBy: actor.id })
      .onConflictDoUpdate({
        target: uploadBans.userId,
        set: { reason, bannedBy: actor.id, createdAt: new Date() },
      })
      .returning();
    await recordAuditEvent(tx, actor, {
      action: 'uploader.ban',
      target: `${person.name} (${person.email})`,
      detail: reason,
    });
    return toUploadBan({ ...row!, name: person.name, email: person.email });
  });
}

/** Lets a person upload again. */
export async function liftUploadBan(
  database: DatabaseHandle,
  actor: Actor,
  userId: string,
): Promise<void> {
  await withTransaction(database, async ({ tx }) => {
    const removed = await tx
      .delete(uploadBans)
      .where(eq(uploadBans.userId, userId))
      .returning({ reason: uploadBans.reason });
    if (removed.length === 0) {
      throw new AppError('not_found', 'This person is not stopped from uploading.');
    }
    const [person] = await tx
      .select({ name: users.name, email: users.email })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    await recordAuditEvent(tx, actor, {
      action: 'uploader.unban',
      target: person ? `${person.name} (${person.email})` : userId,
    });
  });
}

/** Everyone stopped from uploading, most recent first (admins). */
export async function listUploadBans(database: DatabaseHandle): Promise<UploadBan[]> {
  const rows = await database.db
    .select(selectBan)
    .from(uploadBans)
    .innerJoin(users, eq(users.id, uploadBans.userId))
    .orderBy(desc(uploadBans.createdAt))
    .limit(500);
  return rows.map(toUploadBan);
}
