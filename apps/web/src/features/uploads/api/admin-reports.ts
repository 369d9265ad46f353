import { closeReportResponseSchema, listReportsResponseSchema } from '@sticky/contracts';
import type { ReportState } from '@sticky/contracts';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { apiPatch } from '@/lib/api-client.ts';
import { cursorPages } from './cursor-pages.ts';

export const reportsQueryKey = ['admin', 'reports'] as const;

/** `GET /api/admin/reports`: reports in one state, newest first, page by page. */
export const reportsQueryOptions = (state: ReportState) =>
  infiniteQueryOptions({
    queryKey: [...reportsQueryKey, state],
    ...cursorPages('/api/admin/reports', listReportsResponseSchema, { state }),
  });

/** `PATCH /api/admin/reports/{id}`: resolve (acted on) or dismiss (nothing to do). */
export function closeReport(id: string, state: 'resolved' | 'dismissed') {
  return apiPatch(
    `/api/admin/reports/${encodeURIComponent(id)}`,
    { state },
    closeReportResponseSchema,
  );
}
