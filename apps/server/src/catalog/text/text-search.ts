import { animateParamsSchema } from '@sticky/contracts';
import type { Page } from '../query/items.ts';
import type { QueryDeps } from '../query/query-caches.ts';
import { searchItemIds } from '../query/search.ts';
import type { SearchOptions } from '../query/search.ts';
import type { Requester } from '../requester.ts';
import { animateText } from './animate.ts';
import type { AnimateDeps } from './animate.ts';
import { textStyleIds } from './styles.ts';

/**
 * `text/search`: the catalog's matching text items, then the query itself animated in every
 * style, as one list. Pagination stays exact: the total counts the renderings, and they are
 * only drawn when the page asked reaches them (and within the limits of animateText).
 */
export async function searchTextItemIds(
  deps: QueryDeps & AnimateDeps,
  options: Omit<SearchOptions, 'types'>,
  requester: Requester,
): Promise<Page<string>> {
  const catalog = await searchItemIds(deps, { ...options, types: ['text'] });
  const parsed = animateParamsSchema.shape.m.safeParse(options.q);
  // A query we cannot draw (too long for a sticker), or may not draw for this request (another
  // site's link, docs/security.md), gets the catalog's answer alone.
  if (!parsed.success || requester.mayRender === false) return catalog;
  const renderings = textStyleIds.length;
  const totalCount = catalog.totalCount + renderings;
  const start = Math.max(0, options.offset - catalog.totalCount);
  const end = Math.min(renderings, options.offset + options.limit - catalog.totalCount);
  if (end <= start) return { rows: catalog.rows, totalCount };
  const rows = await animateText(deps, parsed.data, requester);
  return { rows: [...catalog.rows, ...rows.slice(start, end).map((row) => row.id)], totalCount };
}
