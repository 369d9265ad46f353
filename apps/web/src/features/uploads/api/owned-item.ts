import { deleteItemResponseSchema, ownedItemResponseSchema } from '@sticky/contracts';
import type { OwnedItem, UpdateItemRequest } from '@sticky/contracts';
import { queryOptions } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { apiDelete, apiGet, apiPatch } from '@/lib/api-client.ts';

export const ownedItemQueryKey = (id: string) => ['owned-item', id] as const;

/** `GET /api/items/{id}`: the item with what the signed-in person may do with it. */
export const ownedItemQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ownedItemQueryKey(id),
    queryFn: async ({ signal }) =>
      (await apiGet(`/api/items/${encodeURIComponent(id)}`, ownedItemResponseSchema, { signal }))
        .item,
  });

/** `PATCH /api/items/{id}`: only the fields given change. */
export async function updateItem(id: string, changes: UpdateItemRequest): Promise<OwnedItem> {
  const response = await apiPatch(
    `/api/items/${encodeURIComponent(id)}`,
    changes,
    ownedItemResponseSchema,
  );
  return response.item;
}

/** `DELETE /api/items/{id}` */
export function deleteItem(id: string) {
  return apiDelete(`/api/items/${encodeURIComponent(id)}`, deleteItemResponseSchema);
}

/**
 * After an edit, a hide or a deletion every list may show the item differently: the catalog's
 * lists, the item itself, and the upload lists.
 */
export async function refreshAfterItemChange(queryClient: QueryClient, id: string) {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: ['content'] }),
    queryClient.invalidateQueries({ queryKey: ['uploads'] }),
    queryClient.invalidateQueries({ queryKey: ownedItemQueryKey(id) }),
  ]);
}
