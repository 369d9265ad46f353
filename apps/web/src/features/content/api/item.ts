import { queryOptions } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { getContentClient } from '../content-client.ts';
import type { ContentItem } from '../content-types.ts';

/** One item, by the id taken from the slug. */
export async function fetchItem(queryClient: QueryClient, id: string): Promise<ContentItem> {
  const { gf } = await getContentClient(queryClient);
  const result = await gf.gif(id);
  return result.data;
}

export const itemQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['content', 'item', id],
    queryFn: ({ client }) => fetchItem(client, id),
  });
