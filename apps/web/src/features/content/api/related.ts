import type { ItemType } from '@sticky/contracts';
import { infiniteQueryOptions } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { getContentClient } from '../content-client.ts';
import type { ContentPage } from '../content-types.ts';
import { contentLimits } from '../content-types.ts';
import { getNextOffset, toContentPage } from './paging.ts';

/**
 * Related items (docs/web.md, "The spec's rules the web keeps"): 15 a page; GIPHY has related GIFs
 * and stickers, not text.
 */
export async function fetchRelated(
  queryClient: QueryClient,
  id: string,
  itemType: ItemType,
  offset: number,
): Promise<ContentPage> {
  const { gf } = await getContentClient(queryClient);
  const limit = contentLimits.relatedLimit;
  const type = itemType === 'sticker' ? 'stickers' : 'gifs';
  const result = await gf.related(id, { limit, offset, type });
  return toContentPage(result, offset, limit);
}

export const relatedQueryOptions = (id: string, itemType: ItemType) =>
  infiniteQueryOptions({
    queryKey: ['content', 'related', itemType, id],
    queryFn: ({ client, pageParam }) => fetchRelated(client, id, itemType, pageParam),
    initialPageParam: 0,
    getNextPageParam: getNextOffset,
  });
