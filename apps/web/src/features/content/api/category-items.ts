import { infiniteQueryOptions } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { getContentClient } from '../content-client.ts';
import type { ContentPage } from '../content-types.ts';
import { contentLimits } from '../content-types.ts';
import { getNextOffset, toContentPage } from './paging.ts';

/**
 * `GET gifs/categories/{category}/{subcategory}`. The SDK's method takes no paging options,
 * so `limit` and `offset` travel as the client's documented extra query parameters.
 */
export async function fetchCategoryItems(
  queryClient: QueryClient,
  category: string,
  subcategory: string,
  offset: number,
): Promise<ContentPage> {
  const { withParams } = await getContentClient(queryClient);
  const limit = contentLimits.pageSize;
  const gf = withParams({ limit: String(limit), offset: String(offset) });
  const result = await gf.gifs(encodeURIComponent(category), encodeURIComponent(subcategory));
  return toContentPage(result, offset, limit);
}

export const categoryItemsQueryOptions = (category: string, subcategory: string) =>
  infiniteQueryOptions({
    queryKey: ['content', 'category-items', category, subcategory],
    queryFn: ({ client, pageParam }) =>
      fetchCategoryItems(client, category, subcategory, pageParam),
    initialPageParam: 0,
    getNextPageParam: getNextOffset,
  });
