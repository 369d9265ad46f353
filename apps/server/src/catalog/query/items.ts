import type { Rating } from '@sticky/contracts';
import { ratingsUpTo } from '@sticky/contracts';
import { and, eq, getTableColumns, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { AppConfig } from '../../config/env.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { items } from '../../db/schema.ts';

/**
 * What every catalog read needs. The domain names its own dependencies and never imports the
 * composition root (docs/architecture.md, "Boundaries"); the app's deps satisfy them.
 */
export interface CatalogDeps {
  config: AppConfig;
  database: DatabaseHandle;
}

const {
  searchVector: _searchVector,
  searchVectorStem: _searchVectorStem,
  ...itemColumns
} = getTableColumns(items);

/** Every item column a serialised item needs (not the search vectors). */
export const catalogItemColumns = itemColumns;
export type CatalogItemRow = Omit<typeof items.$inferSelect, 'searchVector' | 'searchVectorStem'>;

export type ItemType = CatalogItemRow['type'];

/** A page of rows and the number of rows the whole list has. */
export interface Page<T> {
  rows: T[];
  totalCount: number;
  /**
   * Ranked ids: the item changes heard when they were read (item-changes.ts), so a page made
   * of a kept ranking is kept no longer than it (docs/catalog.md, "Caches and versions").
   */
  itemChanges?: number;
}

/** Ranked ids, and whether the count is exact (every match read) or an estimate. */
export interface Ranking extends Page<string> {
  isExact: boolean;
}

/**
 * What lists, search, trending, related and random may show: indexable, not an on-the-fly
 * rendering, of the asked types and at or below the rating ceiling. Items outside this are
 * still served by id (`gifs/{id}`, `gifs?ids=`).
 */
export function listableItems(options: { types?: readonly ItemType[]; rating?: Rating }): SQL {
  const conditions = [
    eq(items.isIndexable, true),
    eq(items.isDynamic, false),
    inArray(items.rating, ratingsUpTo(options.rating)),
  ];
  if (options.types) conditions.push(inArray(items.type, [...options.types]));
  return and(...conditions)!;
}

/** The same filter as `listableItems`, for raw SQL over `items` aliased as `alias`. */
export function listableItemsSql(
  alias: string,
  options: { types?: readonly ItemType[]; rating?: Rating },
): SQL {
  const column = (name: string) => sql.raw(`${alias}.${name}`);
  const ratings = ratingsUpTo(options.rating);
  const typeFilter = options.types
    ? sql` AND ${column('type')} IN (${sql.join(
        options.types.map((type) => sql`${type}`),
        sql`, `,
      )})`
    : sql``;
  return sql`${column('is_indexable')} AND NOT ${column('is_dynamic')} AND ${column('rating')} IN (${sql.join(
    ratings.map((rating) => sql`${rating}`),
    sql`, `,
  )})${typeFilter}`;
}

/**
 * Rows for these ids, in the order given; unknown, hidden and private ids are left out (such an
 * item is gone for everyone but its owner and admins, who manage it through /api/items). An
 * unlisted item is answered: its id is its link (docs/uploads.md, "Visibility").
 */
export async function loadItemsByIds(
  deps: CatalogDeps,
  ids: readonly string[],
): Promise<CatalogItemRow[]> {
  if (ids.length === 0) return [];
  const rows = await deps.database.db
    .select(catalogItemColumns)
    .from(items)
    .where(
      and(inArray(items.id, [...ids]), isNull(items.hiddenAt), ne(items.visibility, 'private')),
    );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
