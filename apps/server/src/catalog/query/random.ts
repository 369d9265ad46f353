import type { Rating } from '@sticky/contracts';
import { sql } from 'drizzle-orm';
import { listableItemsSql, loadItemsByIds } from './items.ts';
import type { CatalogDeps, CatalogItemRow, ItemType } from './items.ts';

/**
 * One listable item at random, optionally among those matching `tag` (its words, exact or
 * stemmed, anywhere in the search text). Undefined when nothing matches.
 */
export async function pickRandomItem(
  deps: CatalogDeps,
  options: { types: readonly ItemType[]; rating?: Rating; tag?: string },
): Promise<CatalogItemRow | undefined> {
  const filter = listableItemsSql('i', options);
  const tag = options.tag?.toLowerCase();
  const tagFilter = tag
    ? sql` AND (i.tags @> ARRAY[${tag}]
        OR i.search_vector @@ websearch_to_tsquery('sticky_simple', ${tag})
        OR i.search_vector_stem @@ websearch_to_tsquery('sticky_english', ${tag}))`
    : sql``;
  const result = await deps.database.db.execute<{ id: string }>(sql`
    SELECT i.id FROM items i WHERE ${filter}${tagFilter} ORDER BY random() LIMIT 1`);
  const id = result.rows[0]?.id;
  if (!id) return undefined;
  const [row] = await loadItemsByIds(deps, [id]);
  return row;
}
