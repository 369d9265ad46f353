import { listIntegrationsResponseSchema } from '@sticky/contracts';
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '@/lib/api-client.ts';

/** `GET /api/admin/integrations`: each chat platform, its endpoints, last request and setup. */
export const integrationsQueryOptions = () =>
  queryOptions({
    queryKey: ['admin', 'integrations'],
    queryFn: ({ signal }) =>
      apiGet('/api/admin/integrations', listIntegrationsResponseSchema, { signal }),
    // The last request moves while an admin sets a platform up: show it without a reload.
    refetchInterval: 15_000,
  });
