import { adminOverviewResponseSchema } from '@sticky/contracts';
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '@/lib/api-client.ts';

/** `GET /api/admin/overview`: daily uploads and searches, storage, job queues and health. */
export const adminOverviewQueryOptions = () =>
  queryOptions({
    queryKey: ['admin', 'overview'],
    queryFn: ({ signal }) => apiGet('/api/admin/overview', adminOverviewResponseSchema, { signal }),
    // Queues and health move by the minute: fresh on each visit, not on every focus.
    staleTime: 30_000,
  });
