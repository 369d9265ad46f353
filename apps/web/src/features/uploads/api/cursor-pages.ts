import { apiGet } from '@/lib/api-client.ts';
import type { SchemaInput } from '@/lib/api-client.ts';

/** How many rows an admin list asks for at a time. */
const pageSize = 20;

/**
 * The paging of a list read a page at a time (`limit`, and `cursor` the `next` of the page
 * before), to spread into `infiniteQueryOptions` beside the list's own query key.
 */
export function cursorPages<Page extends { next: string | null }>(
  path: string,
  schema: SchemaInput<Page>,
  params: Record<string, string> = {},
) {
  return {
    queryFn: ({ pageParam, signal }: { pageParam: string | undefined; signal: AbortSignal }) => {
      const query = new URLSearchParams({ ...params, limit: String(pageSize) });
      if (pageParam) query.set('cursor', pageParam);
      return apiGet(`${path}?${query}`, schema, { signal });
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page: Page) => page.next ?? undefined,
  };
}
