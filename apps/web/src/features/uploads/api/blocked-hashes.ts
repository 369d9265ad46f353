import { listBlockedHashesResponseSchema, unblockHashResponseSchema } from '@sticky/contracts';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { apiDelete, apiGet } from '@/lib/api-client.ts';

export const blockedHashesQueryKey = ['admin', 'blocked-hashes'] as const;

/** `GET /api/admin/blocked-hashes`: files that may not be uploaded again, newest first. */
export const blockedHashesQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: blockedHashesQueryKey,
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams({ limit: '20' });
      if (pageParam) query.set('cursor', pageParam);
      return apiGet(`/api/admin/blocked-hashes?${query}`, listBlockedHashesResponseSchema, {
        signal,
      });
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next ?? undefined,
  });

/** `DELETE /api/admin/blocked-hashes/{hash}`: the same file may be uploaded again. */
export function unblockHash(hash: string) {
  return apiDelete(
    `/api/admin/blocked-hashes/${encodeURIComponent(hash)}`,
    unblockHashResponseSchema,
  );
}
