import { animateParamsSchema } from '@sticky/contracts';
import type { ImportDeps } from '../import/import-media.ts';
import type { Page } from '../query/items.ts';
import { animateText } from './animate.ts';
import { textStyleIds } from './styles.ts';

/**
 * The Text tab's search: the catalog's matching text items, then the query itself animated in
 * every style, as one list. Pagination stays exact: the total counts the renderings, and they
 * are only drawn when the page asked reaches them.
 */
export async function appendAnimatedQuery(
  deps: ImportDeps,
  options: { q: string; limit: number; offset: number },
  catalog: Page<string>,
): Promise<Page<string>> {
  const parsed = animateParamsSchema.shape.m.safeParse(options.q);
  // A query we cannot draw (too long for a sticker) gets the catalog's answer alone.
  if (!parsed.success) return catalog;
  const renderings = textStyleIds.length;
  const totalCount = catalog.totalCount + renderings;
  const start = Math.max(0, options.offset - catalog.totalCount);
  const end = Math.min(renderings, options.offset + options.limit - catalog.totalCount);
  if (end <= start) return { rows: catalog.rows, totalCount };
  const rows = await animateText(deps, parsed.data);
  return { rows: [...catalog.rows, ...rows.slice(start, end).map((row) => row.id)], totalCount };
}
