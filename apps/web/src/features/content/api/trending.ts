import type { ContentFilter } from '@sticky/contracts';
import { infiniteQueryOptions } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { getContentClient } from '../content-client.ts';
import type { ContentPage } from '../content-types.ts';
import { contentLimits } from '../content-types.ts';
import { getNextOffset, toContentPage } from './paging.ts';

/**
 * Trending (docs/web.md, "The spec's rules the web keeps"): 25 a page, rating g, of the filter's
 * type.
 */
export async function fetchTrending(
  queryClient: QueryClient,
  type: ContentFilter,
  offset: number,
): Promise<ContentPage> {
  const { gf } = await getContentClient(queryClient);
  const limit = contentLimits.pageSize;
  const result = await gf.trending({ limit, offset, type, rating: 'g' });
  return toContentPage(result, offset, limit);
}

export const trendingQueryOptions = (type: ContentFilter) =>
  infiniteQueryOptions({
    queryKey: ['content', 'trending', type],
    queryFn: ({ client, pageParam }) => fetchTrending(client, type, pageParam),
    initialPageParam: 0,
    getNextPageParam: getNextOffset,
  });
