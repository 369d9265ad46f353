import { listAuditResponseSchema } from '@sticky/contracts';
import { infiniteQueryOptions } from '@tanstack/react-query';
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { cursorPages } from './cursor-pages.ts';

export const auditQueryKey = ['admin', 'audit'] as const;

/** `GET /api/admin/audit`: every admin action, newest first, page by page. */
export const auditQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: auditQueryKey,
    ...cursorPages('/api/admin/audit', listAuditResponseSchema),
  });

/** After an admin action: the list it changed, and the audit list, which records every one. */
export async function refreshAfterAdminAction(queryClient: QueryClient, ...queryKeys: QueryKey[]) {
  await Promise.all(
    [...queryKeys, auditQueryKey].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  );
}
