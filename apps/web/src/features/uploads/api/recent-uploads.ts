import { queryOptions } from '@tanstack/react-query';
import { fetchUploadsPage, uploadsQueryKey } from './uploads-list.ts';

/**
 * My latest uploads, asked again every second while `isWatching`: the upload page follows the
 * files it sent from Processing to Ready (or Failed) this way.
 */
export const recentUploadsQueryOptions = (isWatching: boolean) =>
  queryOptions({
    queryKey: [...uploadsQueryKey, 'recent'],
    queryFn: ({ signal }) => fetchUploadsPage('mine', { limit: 100, signal }),
    enabled: isWatching,
    refetchInterval: isWatching ? 1000 : false,
  });
