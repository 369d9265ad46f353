import { sql } from 'drizzle-orm';
import { listableItemsSql } from './items.ts';
import type { CatalogDeps } from './items.ts';

/** Items read to find a term's neighbours: the work per request stays bounded. */
const SAMPLE_ITEMS = 500;

/**
 * Tags that go with a term (GIPHY's `tags/related/{term}`, search suggestions): the tags most
 * often found beside it on the most popular items that carry it, the term itself left out.
 */
export async function listRelatedTags(
  deps: CatalogDeps,
  options: { term: string; limit: number },
): Promise<string[]> {
  const filter = listableItemsSql('i', {});
  const result = await deps.database.db.execute<{ tag: string }>(sql`
    WITH sample AS (
      SELECT i.tags FROM items i
      WHERE ${filter} AND i.tags @> ARRAY[${options.term}]
      ORDER BY i.trend_score DESC
      LIMIT ${SAMPLE_ITEMS}
    )
    SELECT tag FROM sample, unnest(sample.tags) AS tag
    WHERE lower(tag) <> ${options.term}
    GROUP BY tag
    ORDER BY count(*) DESC, tag
    LIMIT ${options.limit}`);
  return result.rows.map((row) => row.tag);
}
