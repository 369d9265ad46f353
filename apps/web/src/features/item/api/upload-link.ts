import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '@/lib/api-client.ts';

/** How often the page of a link still processing asks again. */
export const uploadLinkPollMs = 2000;

/** `GET /api/links/{id}`: whether an upload's link leads to its item yet (404: never will). */
export const uploadLinkQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['upload-link', id] as const,
    queryFn: async ({ signal }) => {
      // Loaded when asked: zod stays out of the item page's first load (docs/web.md, "Lazy routes").
      const { uploadLinkStateResponseSchema } = await import('@sticky/contracts');
      return apiGet(`/api/links/${encodeURIComponent(id)}`, uploadLinkStateResponseSchema, {
        signal,
      });
    },
    retry: false,
    refetchInterval: (query) =>
      query.state.data?.state === 'processing' ? uploadLinkPollMs : false,
  });
