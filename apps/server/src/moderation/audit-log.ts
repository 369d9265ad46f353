import type { AuditAction, ListAuditQuery, ListAuditResponse } from '@sticky/contracts';
import { desc, lt } from 'drizzle-orm';
import type { Transaction } from '../db/transaction.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { auditEvents } from '../db/schema.ts';
import { AppError } from '../lib/app-error.ts';

/** Who did an admin action: the signed-in admin. */
export interface Actor {
  id: string;
  name: string;
  email: string;
}

type Writer = DatabaseHandle['db'] | Transaction;

/**
 * Writes one line of the audit list (docs/security.md, "Moderation"), in the transaction of the
 * action itself, so the list holds exactly what happened.
 */
export async function recordAuditEvent(
  db: Writer,
  actor: Actor,
  event: { action: AuditAction; target: string; detail?: string },
): Promise<void> {
  await db.insert(auditEvents).values({
    actorId: actor.id,
    actorName: actor.email ? `${actor.name} (${actor.email})` : actor.name,
    action: event.action,
    target: event.target,
    detail: event.detail ?? '',
  });
}

function decodeCursor(cursor: string): number {
  const id = Number(cursor);
  if (!Number.isSafeInteger(id) || id < 1) {
    throw new AppError(
      'bad_request',
      'cursor: not a cursor this server gave; start from the first page.',
    );
  }
  return id;
}

/** The audit list, newest first, a page at a time. */
export async function listAuditEvents(
  database: DatabaseHandle,
  query: ListAuditQuery,
): Promise<ListAuditResponse> {
  const rows = await database.db
    .select()
    .from(auditEvents)
    .where(query.cursor ? lt(auditEvents.id, decodeCursor(query.cursor)) : undefined)
    .orderBy(desc(auditEvents.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  return {
    success: true,
    events: page.map((row) => ({
      id: String(row.id),
      actorName: row.actorName,
      action: row.action as AuditAction,
      target: row.target,
      detail: row.detail,
      createdAt: row.createdAt.toISOString(),
    })),
    next: rows.length > query.limit ? String(page.at(-1)!.id) : null,
  };
}
