import { infiniteQueryOptions } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { getContentClient } from '../content-client.ts';
import type { ContentItem, ContentPage } from '../content-types.ts';
import { contentLimits } from '../content-types.ts';

/**
 * `GET gifs?ids=`, a page of ids at a time. Items come back in the order asked
 * (the newest favourite first); ids the source no longer has are left out.
 */
export async function fetchItemsByIds(
  queryClient: QueryClient,
  ids: readonly string[],
  offset: number,
): Promise<ContentPage> {
  const slice = ids.slice(offset, offset + contentLimits.pageSize);
  const next = offset + slice.length < ids.length ? offset + slice.length : undefined;
  if (slice.length === 0) return { items: [], nextOffset: undefined };
  const { gf } = await getContentClient(queryClient);
  const result = await gf.gifs([...slice]);
  const byId = new Map<string, ContentItem>(result.data.map((item) => [String(item.id), item]));
  const items = slice.map((id) => byId.get(id)).filter((item): item is ContentItem => !!item);
  return { items, nextOffset: next };
}

export const itemsByIdsQueryOptions = (ids: readonly string[]) =>
  infiniteQueryOptions({
    queryKey: ['content', 'items-by-ids', ids.join(',')],
    queryFn: ({ client, pageParam }) => fetchItemsByIds(client, ids, pageParam),
    initialPageParam: 0,
    getNextPageParam: (page: ContentPage) => page.nextOffset,
  });
