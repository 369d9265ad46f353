import type { Rating } from '@sticky/contracts';
import { ratingsUpTo } from '@sticky/contracts';
import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { CatalogDeps, Page } from './items.ts';

interface SuggestOptions {
  q: string;
  rating?: Rating;
  limit: number;
  offset: number;
}

function normalizeTyped(q: string): string {
  return q.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * The tags that start with what was typed, with their uses, from catalog_tags (listable items
 * per tag and rating, kept by triggers: migration 0009) through its prefix index: only the
 * tags that start with the text are read, never every tag of every item.
 */
export function tagMatchesSql(options: Pick<SuggestOptions, 'q' | 'rating'>): SQL {
  const typed = normalizeTyped(options.q);
  const pattern = `${typed.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
  const ratings = sql.join(
    ratingsUpTo(options.rating).map((rating) => sql`${rating}`),
    sql`, `,
  );
  return sql`
    SELECT tag, sum(uses) AS uses FROM catalog_tags
    WHERE tag LIKE ${pattern} AND rating IN (${ratings})
    GROUP BY tag`;
}

/**
 * `gifs/search/tags`: catalog tags starting with what was typed, the tag equal to it first,
 * then the tags on the most items (docs/catalog.md, "Search").
 */
export async function suggestTags(
  deps: CatalogDeps,
  options: SuggestOptions,
): Promise<Page<string>> {
  const typed = normalizeTyped(options.q);
  if (typed === '') return { rows: [], totalCount: 0 };
  const matches = tagMatchesSql(options);
  const result = await deps.database.db.execute<{ tag: string; total: string }>(sql`
    SELECT tag, count(*) OVER () AS total FROM (${matches}) suggestions
    ORDER BY (tag = ${typed}) DESC, uses DESC, tag
    LIMIT ${options.limit} OFFSET ${options.offset}`);
  let totalCount = Number(result.rows[0]?.total ?? 0);
  if (result.rows.length === 0 && options.offset > 0) {
    const counted = await deps.database.db.execute<{ total: string }>(
      sql`SELECT count(*) AS total FROM (${matches}) suggestions`,
    );
    totalCount = Number(counted.rows[0]?.total ?? 0);
  }
  return { rows: result.rows.map((row) => row.tag), totalCount };
}
