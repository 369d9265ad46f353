import { randomUUID } from 'node:crypto';
import type {
  CreateReportResponse,
  ListReportsQuery,
  ListReportsResponse,
  ReportReason,
  ReportState,
  SessionUser,
} from '@sticky/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { isUniqueViolation } from '../db/database-errors.ts';
import { withTransaction } from '../db/transaction.ts';
import type { ItemType } from '../catalog/query/items.ts';
import { itemPageUrl } from '../catalog/query/serialize.ts';
import type { AppConfig } from '../config/env.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { itemReports, items } from '../db/schema.ts';
import { AppError } from '../lib/app-error.ts';
import { recordAuditEvent } from './audit-log.ts';

export interface ReportsDeps {
  config: AppConfig;
  database: DatabaseHandle;
}

/**
 * A signed-in person reports an item they can see (docs/security.md, "Moderation"); one open
 * report per person and item, kept by a unique index, so a second is a clear 409.
 */
export async function createReport(
  deps: ReportsDeps,
  user: SessionUser,
  itemId: string,
  report: { reason: ReportReason; note: string },
): Promise<CreateReportResponse> {
  const [item] = await deps.database.db
    .select({ ownerId: items.ownerId, hiddenAt: items.hiddenAt })
    .from(items)
    .where(eq(items.id, itemId))
    .limit(1);
  if (!item || (item.hiddenAt && !user.isAdmin && item.ownerId !== user.id)) {
    throw new AppError('not_found', 'There is no item with this id.');
  }
  const id = randomUUID();
  try {
    await deps.database.db.insert(itemReports).values({
      id,
      itemId,
      reporterId: user.id,
      reason: report.reason,
      note: report.note,
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw new AppError(
      'conflict',
      'You have already reported this item; an admin will look at your report.',
    );
  }
  return { success: true, report: { id, state: 'open' } };
}

type ReportRow = {
  id: string;
  item_id: string;
  title: string;
  type: ItemType;
  slug: string;
  hidden_at: Date | null;
  reporter_id: string;
  reporter_name: string;
  reporter_email: string;
  reason: ReportReason;
  note: string;
  state: ReportState;
  created_at: Date | string;
  cursor_at: string;
};

function decodeCursor(cursor: string): { createdAt: string; id: string } {
  const [createdAt, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!createdAt || !id || Number.isNaN(Date.parse(createdAt))) {
    throw new AppError(
      'bad_request',
      'cursor: not a cursor this server gave; start from the first page.',
    );
  }
  return { createdAt, id };
}

/** Reports in one state, newest first, with the item and who reported it (admins). */
export async function listReports(
  deps: ReportsDeps,
  query: ListReportsQuery,
): Promise<ListReportsResponse> {
  const conditions = [sql`r.state = ${query.state}`];
  if (query.cursor) {
    const { createdAt, id } = decodeCursor(query.cursor);
    conditions.push(sql`(r.created_at, r.id) < (${createdAt}::timestamptz, ${id})`);
  }
  const result = await deps.database.db.execute<ReportRow>(sql`
    SELECT r.id, r.item_id, r.reason, r.note, r.state, r.created_at,
      r.created_at::text AS cursor_at, i.title, i.type, i.slug, i.hidden_at,
      u.id AS reporter_id, u.name AS reporter_name, u.email AS reporter_email
    FROM item_reports r
    JOIN items i ON i.id = r.item_id
    JOIN users u ON u.id = r.reporter_id
    WHERE ${sql.join(conditions, sql` AND `)}
    ORDER BY r.created_at DESC, r.id DESC
    LIMIT ${query.limit + 1}`);
  const page = result.rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    success: true,
    reports: page.map((row) => ({
      id: row.id,
      itemId: row.item_id,
      itemTitle: row.title,
      itemUrl: itemPageUrl(deps.config, { type: row.type, slug: row.slug }),
      isItemHidden: row.hidden_at !== null,
      reporter: { id: row.reporter_id, name: row.reporter_name, email: row.reporter_email },
      reason: row.reason,
      note: row.note,
      state: row.state,
      createdAt: new Date(row.created_at).toISOString(),
    })),
    next:
      result.rows.length > query.limit && last
        ? Buffer.from(`${last.cursor_at}|${last.id}`).toString('base64url')
        : null,
  };
}

/** An admin resolves (acted on it) or dismisses (nothing to do) an open report. */
export async function closeReport(
  deps: ReportsDeps,
  actor: SessionUser,
  reportId: string,
  state: 'resolved' | 'dismissed',
): Promise<void> {
  await withTransaction(deps.database, async ({ tx }) => {
    const [closed] = await tx
      .update(itemReports)
      .set({ state, closedAt: new Date(), closedBy: actor.id })
      .where(and(eq(itemReports.id, reportId), eq(itemReports.state, 'open')))
      .returning({ itemId: itemReports.itemId, reason: itemReports.reason });
    if (!closed) {
      const [existing] = await tx
        .select({ state: itemReports.state })
        .from(itemReports)
        .where(eq(itemReports.id, reportId))
        .limit(1);
      if (!existing) throw new AppError('not_found', 'There is no report with this id.');
      throw new AppError('conflict', `This report was already ${existing.state}.`);
    }
    await recordAuditEvent(tx, actor, {
      action: state === 'resolved' ? 'report.resolve' : 'report.dismiss',
      target: `item ${closed.itemId}`,
      detail: `reported as ${closed.reason}`,
    });
  });
}
