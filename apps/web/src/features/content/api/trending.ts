import type { ContentFilter } from '@sticky/contracts';
import { homeTrendingParams } from '@sticky/contracts/first-screen';
import { infiniteQueryOptions } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { getContentClient } from '../content-client.ts';
import type { ContentPage } from '../content-types.ts';
import { takeFirstPage } from './first-page.ts';
import { getNextOffset, toContentPage } from './paging.ts';

/**
 * Trending (docs/web.md, "The spec's rules the web keeps"): 25 a page, rating g, of the filter's
 * type. The first page may already be in the HTML (api/first-page.ts): then no request, and no
 * wait for the content client.
 */
export async function fetchTrending(
  queryClient: QueryClient,
  type: ContentFilter,
  offset: number,
): Promise<ContentPage> {
  const { limit, rating } = homeTrendingParams;
  const carried = takeFirstPage({ type, limit, offset, rating });
  if (carried) return toContentPage(carried, offset, limit);
  const { gf } = await getContentClient(queryClient);
  const result = await gf.trending({ limit, offset, type, rating });
  return toContentPage(result, offset, limit);
}

export const trendingQueryOptions = (type: ContentFilter) =>
  infiniteQueryOptions({
    queryKey: ['content', 'trending', type],
    queryFn: ({ client, pageParam }) => fetchTrending(client, type, pageParam),
    initialPageParam: 0,
    getNextPageParam: getNextOffset,
  });
