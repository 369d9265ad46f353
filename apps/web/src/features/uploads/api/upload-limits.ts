import { uploadLimitsResponseSchema } from '@sticky/contracts';
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '@/lib/api-client.ts';

/** `GET /api/uploads/limits`: what the person may send, and what they used today. */
export const uploadLimitsQueryOptions = () =>
  queryOptions({
    queryKey: ['uploads', 'limits'],
    queryFn: ({ signal }) => apiGet('/api/uploads/limits', uploadLimitsResponseSchema, { signal }),
    staleTime: 10_000,
  });
