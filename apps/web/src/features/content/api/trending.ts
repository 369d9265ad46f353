import type { ContentFilter } from '@sticky/contracts';
import { homeTrendingParams } from '@sticky/contracts/first-screen';
import { infiniteQueryOptions } from '@tanstack/react-query';
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { getContentClient } from '../content-client.ts';
import type { ContentPage } from '../content-types.ts';
import { takeFirstPage } from './first-page.ts';
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
  const { limit, rating } = homeTrendingParams;
  const { gf } = await getContentClient(queryClient);
  const result = await gf.trending({ limit, offset, type, rating });
  return toContentPage(result, offset, limit);
}

/**
 * The page the HTML carries, as the query's data from the moment the query exists: the grid's
 * first render draws the tiles, where a fetcher answering from the document would draw the
 * loading state, then the tiles again in a render React cannot split (docs/web.md, "First
 * page"). Taken once; a query made again later finds nothing and asks the server.
 */
function takeCarriedTrending(type: ContentFilter): InfiniteData<ContentPage, number> | undefined {
  const { limit, rating } = homeTrendingParams;
  const carried = takeFirstPage({ type, limit, offset: 0, rating });
  return carried ? { pages: [toContentPage(carried, 0, limit)], pageParams: [0] } : undefined;
}

export const trendingQueryOptions = (type: ContentFilter) =>
  infiniteQueryOptions({
    queryKey: ['content', 'trending', type],
    queryFn: ({ client, pageParam }) => fetchTrending(client, type, pageParam),
    initialPageParam: 0,
    getNextPageParam: getNextOffset,
    initialData: () => takeCarriedTrending(type),
  });
