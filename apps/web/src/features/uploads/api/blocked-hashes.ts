import { listBlockedHashesResponseSchema, unblockHashResponseSchema } from '@sticky/contracts';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { apiDelete } from '@/lib/api-client.ts';
import { cursorPages } from './cursor-pages.ts';

export const blockedHashesQueryKey = ['admin', 'blocked-hashes'] as const;

/** `GET /api/admin/blocked-hashes`: files that may not be uploaded again, newest first. */
export const blockedHashesQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: blockedHashesQueryKey,
    ...cursorPages('/api/admin/blocked-hashes', listBlockedHashesResponseSchema),
  });

/** `DELETE /api/admin/blocked-hashes/{hash}`: the same file may be uploaded again. */
export function unblockHash(hash: string) {
  return apiDelete(
    `/api/admin/blocked-hashes/${encodeURIComponent(hash)}`,
    unblockHashResponseSchema,
  );
}
