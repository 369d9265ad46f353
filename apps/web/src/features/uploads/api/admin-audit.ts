import { listAuditResponseSchema } from '@sticky/contracts';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { apiGet } from '@/lib/api-client.ts';

export const auditQueryKey = ['admin', 'audit'] as const;

/** `GET /api/admin/audit`: every admin action, newest first, page by page. */
export const auditQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: auditQueryKey,
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams({ limit: '20' });
      if (pageParam) query.set('cursor', pageParam);
      return apiGet(`/api/admin/audit?${query}`, listAuditResponseSchema, { signal });
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next ?? undefined,
  });
