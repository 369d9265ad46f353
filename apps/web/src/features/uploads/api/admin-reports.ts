import { closeReportResponseSchema, listReportsResponseSchema } from '@sticky/contracts';
import type { ReportState } from '@sticky/contracts';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { apiGet, apiPatch } from '@/lib/api-client.ts';

export const reportsQueryKey = ['admin', 'reports'] as const;

/** `GET /api/admin/reports`: reports in one state, newest first, page by page. */
export const reportsQueryOptions = (state: ReportState) =>
  infiniteQueryOptions({
    queryKey: [...reportsQueryKey, state],
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams({ state, limit: '20' });
      if (pageParam) query.set('cursor', pageParam);
      return apiGet(`/api/admin/reports?${query}`, listReportsResponseSchema, { signal });
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next ?? undefined,
  });

/** `PATCH /api/admin/reports/{id}`: resolve (acted on) or dismiss (nothing to do). */
export function closeReport(id: string, state: 'resolved' | 'dismissed') {
  return apiPatch(
    `/api/admin/reports/${encodeURIComponent(id)}`,
    { state },
    closeReportResponseSchema,
  );
}
