import { queryOptions } from '@tanstack/react-query';
import { normalizeItem } from '@/features/content';
import { apiGet } from '@/lib/api-client.ts';

/**
 * `GET /api/shared/{id}`: a public or unlisted item for a signed-out person, when the server
 * runs with PUBLIC_LINKS (docs/uploads.md, "Links"); 404 otherwise.
 */
export const sharedItemQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['shared-item', id] as const,
    queryFn: async ({ signal }) => {
      // Loaded when asked: zod stays out of the item page's first load (docs/web.md, "Lazy routes").
      const { sharedItemResponseSchema } = await import('@sticky/contracts');
      const { item } = await apiGet(
        `/api/shared/${encodeURIComponent(id)}`,
        sharedItemResponseSchema,
        { signal },
      );
      return normalizeItem(item as unknown as Record<string, unknown>, '');
    },
    retry: false,
  });
