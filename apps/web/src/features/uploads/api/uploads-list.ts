import { listUploadsResponseSchema } from '@sticky/contracts';
import type { ListUploadsResponse, UploadState } from '@sticky/contracts';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { apiGet } from '@/lib/api-client.ts';

/** Whose uploads: mine (`GET /api/uploads`) or everyone's (`GET /api/admin/uploads`). */
export type UploadsScope = 'mine' | 'everyone';

export const uploadsQueryKey = ['uploads'] as const;

const pathOf: Record<UploadsScope, string> = {
  mine: '/api/uploads',
  everyone: '/api/admin/uploads',
};

export function fetchUploadsPage(
  scope: UploadsScope,
  options: { state?: UploadState; cursor?: string; limit?: number; signal?: AbortSignal },
): Promise<ListUploadsResponse> {
  const query = new URLSearchParams({ limit: String(options.limit ?? 50) });
  if (options.state) query.set('state', options.state);
  if (options.cursor) query.set('cursor', options.cursor);
  return apiGet(`${pathOf[scope]}?${query}`, listUploadsResponseSchema, {
    signal: options.signal,
  });
}

/**
 * Uploads newest first, page by page. While any shown upload is processing the list asks
 * again every two seconds, so rows turn Ready (or Failed) without a reload.
 */
export const uploadsQueryOptions = (scope: UploadsScope, state?: UploadState) =>
  infiniteQueryOptions({
    queryKey: [...uploadsQueryKey, scope, state ?? 'all'],
    queryFn: ({ pageParam, signal }) =>
      fetchUploadsPage(scope, { state, cursor: pageParam, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next ?? undefined,
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) =>
        page.uploads.some((upload) => upload.state === 'processing'),
      )
        ? 2000
        : false,
  });
