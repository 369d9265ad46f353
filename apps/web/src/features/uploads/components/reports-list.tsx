import { reportReasonLabels } from '@sticky/contracts';
import type { Report, ReportState } from '@sticky/contracts';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { buttonStyles } from '@/components/button-styles.ts';
import { ErrorState, LoadingIndicator } from '@/features/content';
import { notify } from '@/lib/notify.ts';
import { refreshAfterAdminAction } from '../api/admin-audit.ts';
import { closeReport, reportsQueryKey, reportsQueryOptions } from '../api/admin-reports.ts';
import { refreshAfterItemChange, updateItem } from '../api/owned-item.ts';
import { NextPageButton } from './next-page-button.tsx';
import { StateFilter } from './state-filter.tsx';

const stateFilters: Array<{ value: ReportState; label: string }> = [
  { value: 'open', label: 'Open' },
  { value: 'resolved', label: 'Resolved' },
  { value: 'dismissed', label: 'Dismissed' },
];

type ReportAction = 'hide' | 'resolved' | 'dismissed';

/** What each way of closing a report is called on its button, and what is said once done. */
const reportActions: Array<{ action: ReportAction; label: string; doneText: string }> = [
  { action: 'hide', label: 'Hide item and resolve', doneText: 'Item hidden, report resolved' },
  { action: 'resolved', label: 'Resolve', doneText: 'Report resolved' },
  { action: 'dismissed', label: 'Dismiss', doneText: 'Report dismissed' },
];

/** The item page's path from its absolute URL, so the link stays in the app. */
function toPath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

function ReportRow({ report }: { report: Report }) {
  const queryClient = useQueryClient();
  const act = useMutation({
    mutationFn: async (action: ReportAction) => {
      if (action === 'hide') {
        await updateItem(report.itemId, { isHidden: true });
        await refreshAfterItemChange(queryClient, report.itemId);
      }
      await closeReport(report.id, action === 'dismissed' ? 'dismissed' : 'resolved');
      return action;
    },
    onSuccess: async (action) => {
      await refreshAfterAdminAction(queryClient, reportsQueryKey);
      const { doneText } = reportActions.find((entry) => entry.action === action)!;
      void notify('success', doneText);
    },
    onError: (error) => void notify('error', error.message),
  });
  // An item already hidden is only resolved or dismissed.
  const actions = reportActions.filter(
    (entry) => !(entry.action === 'hide' && report.isItemHidden),
  );
  return (
    <li className="flex flex-col gap-2 rounded-xl border border-white/10 bg-white/5 p-3">
      <div className="flex flex-wrap items-baseline gap-x-2">
        <Link
          to={toPath(report.itemUrl ?? '')}
          className="font-semibold text-white underline hover:text-violet-200"
        >
          {report.itemTitle}
        </Link>
        {report.isItemHidden && <span className="text-xs text-amber-300">(hidden)</span>}
      </div>
      <p className="text-sm text-gray-200">
        <span className="font-semibold">{reportReasonLabels[report.reason]}</span>
        {report.note && <> · “{report.note}”</>}
      </p>
      <p className="text-xs text-gray-400">
        by {report.reporter.name} ({report.reporter.email}) ·{' '}
        <time dateTime={report.createdAt}>{new Date(report.createdAt).toLocaleString()}</time>
      </p>
      {report.state === 'open' && (
        <div className="flex flex-wrap gap-2">
          {actions.map(({ action, label }) => (
            <button
              key={action}
              type="button"
              className={buttonStyles.smallSecondary}
              aria-disabled={act.isPending || undefined}
              onClick={() => !act.isPending && act.mutate(action)}
            >
              {label}
              <span className="sr-only"> the report of {report.itemTitle}</span>
            </button>
          ))}
        </div>
      )}
    </li>
  );
}

/** Reports of items, open first, with the item, who reported it, why, and what to do. */
export function ReportsList() {
  const [state, setState] = useState<ReportState>('open');
  const query = useInfiniteQuery(reportsQueryOptions(state));
  const reports = query.data?.pages.flatMap((page) => page.reports) ?? [];
  return (
    <div className="flex flex-col gap-3">
      <StateFilter label="Show reports" options={stateFilters} value={state} onChange={setState} />
      {query.isPending ? (
        <LoadingIndicator label="Loading reports…" />
      ) : query.error ? (
        <ErrorState message={query.error.message} onRetry={() => void query.refetch()} />
      ) : reports.length === 0 ? (
        <p className="py-4 text-gray-300">No {state} reports.</p>
      ) : (
        <ul aria-label="Reports" className="flex flex-col gap-3">
          {reports.map((report) => (
            <ReportRow key={report.id} report={report} />
          ))}
        </ul>
      )}
      <NextPageButton query={query} label="More reports" />
    </div>
  );
}
