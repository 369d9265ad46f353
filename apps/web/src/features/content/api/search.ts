import type { ContentFilter } from '@sticky/contracts';
import { infiniteQueryOptions } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { getContentClient } from '../content-client.ts';
import type { ContentPage } from '../content-types.ts';
import { contentLimits } from '../content-types.ts';
import { getNextOffset, toContentPage } from './paging.ts';

/**
 * Search (docs/web.md, "The spec's rules the web keeps"): 25 a page, lang en, sort relevant, rating
 * pg-13.
 */
export async function fetchSearch(
  queryClient: QueryClient,
  query: string,
  type: ContentFilter,
  offset: number,
): Promise<ContentPage> {
  const { gf } = await getContentClient(queryClient);
  const limit = contentLimits.pageSize;
  const result = await gf.search(query, {
    limit,
    offset,
    type,
    lang: 'en',
    sort: 'relevant',
    rating: 'pg-13',
  });
  return toContentPage(result, offset, limit);
}

export const searchQueryOptions = (query: string, type: ContentFilter) =>
  infiniteQueryOptions({
    queryKey: ['content', 'search', type, query],
    queryFn: ({ client, pageParam }) => fetchSearch(client, query, type, pageParam),
    initialPageParam: 0,
    getNextPageParam: getNextOffset,
  });
