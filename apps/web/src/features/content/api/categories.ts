import type { CategoriesResult } from '@giphy/js-fetch-api';
import { queryOptions } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { getContentClient } from '../content-client.ts';
import type { ContentCategory } from '../content-types.ts';

const pageLimit = 50;
/** Enough for any real category list; a server that never ends its list cannot hang us. */
const maxPages = 20;

/** Reads a paginated category list to its end (GIPHY sends about 30 in one page). */
async function readAllPages(
  fetchPage: (offset: number) => Promise<CategoriesResult>,
): Promise<ContentCategory[]> {
  const all: ContentCategory[] = [];
  let offset = 0;
  for (let page = 0; page < maxPages; page++) {
    const result = await fetchPage(offset);
    const data = (result.data ?? []) as ContentCategory[];
    all.push(...data);
    const total = result.pagination?.total_count;
    const count = result.pagination?.count ?? data.length;
    offset = (result.pagination?.offset ?? offset) + count;
    if (count === 0 || data.length < pageLimit || (typeof total === 'number' && offset >= total))
      break;
  }
  const seen = new Set<string>();
  return all.filter((category) => {
    if (!category.name_encoded || seen.has(category.name_encoded)) return false;
    seen.add(category.name_encoded);
    return true;
  });
}

/** `GET gifs/categories`. */
export async function fetchCategories(queryClient: QueryClient): Promise<ContentCategory[]> {
  const { gf } = await getContentClient(queryClient);
  return readAllPages((offset) => gf.categories({ limit: pageLimit, offset }));
}

/** `GET gifs/categories/{category}`: the category's subcategories. */
export async function fetchSubcategories(
  queryClient: QueryClient,
  category: string,
): Promise<ContentCategory[]> {
  const { gf } = await getContentClient(queryClient);
  return readAllPages((offset) =>
    gf.subcategories(encodeURIComponent(category), { limit: pageLimit, offset }),
  );
}

export const categoriesQueryOptions = () =>
  queryOptions({
    queryKey: ['content', 'categories'],
    queryFn: ({ client }) => fetchCategories(client),
    staleTime: 10 * 60_000,
  });

export const subcategoriesQueryOptions = (category: string) =>
  queryOptions({
    queryKey: ['content', 'subcategories', category],
    queryFn: ({ client }) => fetchSubcategories(client, category),
    staleTime: 10 * 60_000,
  });
