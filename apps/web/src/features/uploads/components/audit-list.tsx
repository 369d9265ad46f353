import type { AuditAction } from '@sticky/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { ErrorState, LoadingIndicator } from '@/features/content';
import { auditQueryOptions } from '../api/admin-audit.ts';
import { NextPageButton } from './next-page-button.tsx';

/** What each audited action is called on /admin. */
const actionLabels: Record<AuditAction, string> = {
  'item.hide': 'hid',
  'item.unhide': 'unhid',
  'item.delete': 'deleted',
  'hash.block': 'blocked the file',
  'hash.unblock': 'unblocked the file',
  'uploader.ban': 'stopped the uploads of',
  'uploader.unban': 'let upload again',
  'report.resolve': 'resolved a report of',
  'report.dismiss': 'dismissed a report of',
  'category.create': 'created the category',
  'category.rename': 'renamed a category to',
  'category.delete': 'deleted the category',
};

/** Every admin action, newest first: who, what, when (docs/security.md, "Moderation"). */
export function AuditList() {
  const query = useInfiniteQuery(auditQueryOptions());
  const events = query.data?.pages.flatMap((page) => page.events) ?? [];
  if (query.isPending) return <LoadingIndicator label="Loading the audit list…" />;
  if (query.error) {
    return <ErrorState message={query.error.message} onRetry={() => void query.refetch()} />;
  }
  return (
    <div className="flex flex-col gap-3">
      {events.length === 0 ? (
        <p className="py-4 text-gray-300">No admin action yet.</p>
      ) : (
        <ol aria-label="Audit list" className="flex flex-col gap-1 text-sm">
          {events.map((event) => (
            <li key={event.id} className="flex flex-wrap gap-x-2 border-b border-white/5 py-1.5">
              <time dateTime={event.createdAt} className="text-gray-400">
                {new Date(event.createdAt).toLocaleString()}
              </time>
              <span className="text-white">
                {event.actorName} {actionLabels[event.action]}{' '}
                <span className="break-all">{event.target}</span>
              </span>
              {event.detail && <span className="text-gray-300">({event.detail})</span>}
            </li>
          ))}
        </ol>
      )}
      <NextPageButton query={query} label="Older actions" />
    </div>
  );
}
