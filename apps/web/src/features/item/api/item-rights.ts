import { itemRightsFirstScreenSchema } from '@sticky/contracts/first-screen';
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '@/lib/api-client.ts';

/**
 * `GET /api/items/{id}`, for what the signed-in person may do with the item: read without zod,
 * so every item page asks it for a few bytes of code, and only those who may edit, hide or
 * delete download the code that does (docs/web.md, "Lazy routes").
 */
export const itemRightsQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['item-rights', id] as const,
    queryFn: ({ signal }) =>
      apiGet(`/api/items/${encodeURIComponent(id)}`, itemRightsFirstScreenSchema, { signal }),
    retry: false,
    staleTime: 60_000,
  });
