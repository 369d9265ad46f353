import type { Category, GiphyItem, Rating } from '@sticky/contracts';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { categories } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { listableItemsSql, loadItemsByIds } from './items.ts';
import type { CatalogDeps, CatalogItemRow, Page } from './items.ts';
import { serializeItems } from './serialize.ts';

type CategoryRow = typeof categories.$inferSelect;

interface ListOptions {
  rating?: Rating;
  limit: number;
  offset: number;
}

function sqlList(values: readonly (string | number)[]): SQL {
  return sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  );
}

/**
 * (category_id, item_id) for the given categories. A category holds the items filed under it,
 * under its subcategories, and, for a subcategory, its parent's items tagged with its name
 * (GIPHY's subcategories are tags of their category).
 */
function categoryMembersSql(categoryIds: readonly number[]): SQL {
  const ids = sqlList(categoryIds);
  return sql`
    SELECT c.id AS category_id, ic.item_id FROM categories c
      JOIN item_categories ic ON ic.category_id = c.id WHERE c.id IN (${ids})
    UNION
    SELECT c.parent_id, ic.item_id FROM categories c
      JOIN item_categories ic ON ic.category_id = c.id WHERE c.parent_id IN (${ids})
    UNION
    SELECT c.id, ic.item_id FROM categories c
      JOIN item_categories ic ON ic.category_id = c.parent_id
      JOIN items tagged ON tagged.id = ic.item_id
      WHERE c.id IN (${ids}) AND tagged.tags @> ARRAY[lower(c.name)]`;
}

/**
 * The category holds a listable item (categoryMembersSql's rule, for one category): one with
 * none is not listed (docs/catalog.md, "Categories"), so a category made for a single item
 * disappears with it, and an empty one an admin made waits until it holds something.
 */
function hasListableItemSql(rating: Rating | undefined): SQL {
  return sql`EXISTS (
    SELECT 1 FROM item_categories ic JOIN items i ON i.id = ic.item_id
    WHERE ${listableItemsSql('i', { rating })} AND (
      ic.category_id = ${categories.id}
      OR ic.category_id IN (SELECT sub.id FROM categories sub WHERE sub.parent_id = ${categories.id})
      OR (ic.category_id = ${categories.parentId} AND i.tags @> ARRAY[lower(${categories.name})])))`;
}

/** Each category's featured item: its chosen `featured_item_id`, else its most popular item. */
async function loadFeaturedItems(
  deps: CatalogDeps,
  categoryIds: readonly number[],
  rating: Rating | undefined,
): Promise<Map<number, GiphyItem>> {
  if (categoryIds.length === 0) return new Map();
  const filter = listableItemsSql('i', { rating });
  const result = await deps.database.db.execute<{ category_id: number; id: string }>(sql`
    SELECT DISTINCT ON (category_id) category_id, id FROM (
      SELECT c.id AS category_id, i.id, 0 AS priority, i.trend_score FROM categories c
        JOIN items i ON i.id = c.featured_item_id
        WHERE c.id IN (${sqlList(categoryIds)}) AND ${filter}
      UNION ALL
      SELECT m.category_id, i.id, 1, i.trend_score FROM (${categoryMembersSql(categoryIds)}) m
        JOIN items i ON i.id = m.item_id
        WHERE ${filter}
    ) candidates
    ORDER BY category_id, priority, trend_score DESC, id`);
  const rows = await loadItemsByIds(deps, [...new Set(result.rows.map((row) => row.id))]);
  const serialized = new Map(
    (await serializeItems(deps, rows)).map((item) => [item.id, item] as const),
  );
  const featured = new Map<number, GiphyItem>();
  for (const row of result.rows) {
    const item = serialized.get(row.id);
    if (item) featured.set(Number(row.category_id), item);
  }
  return featured;
}

function toCategory(
  row: CategoryRow,
  children: readonly CategoryRow[],
  featured: Map<number, GiphyItem>,
): Category {
  const category: Category = {
    name: row.name,
    name_encoded: row.nameEncoded,
    subcategories: children.map((child) => ({ name: child.name, name_encoded: child.nameEncoded })),
  };
  const gif = featured.get(row.id);
  if (gif) category.gif = gif;
  return category;
}

async function pageOfCategories(
  deps: CatalogDeps,
  parentId: number | null,
  options: ListOptions,
): Promise<{ rows: CategoryRow[]; totalCount: number }> {
  const { db } = deps.database;
  const where = and(
    parentId === null ? isNull(categories.parentId) : eq(categories.parentId, parentId),
    hasListableItemSql(options.rating),
  );
  const [rows, counted] = await Promise.all([
    db
      .select()
      .from(categories)
      .where(where)
      .orderBy(asc(categories.position), asc(categories.name), asc(categories.id))
      .limit(options.limit)
      .offset(options.offset),
    db
      .select({ total: sql<string>`count(*)` })
      .from(categories)
      .where(where),
  ]);
  return { rows, totalCount: Number(counted[0]?.total ?? 0) };
}

/** `gifs/categories`: top-level categories with their subcategories and a featured item. */
export async function listCategories(
  deps: CatalogDeps,
  options: ListOptions,
): Promise<Page<Category>> {
  const page = await pageOfCategories(deps, null, options);
  const ids = page.rows.map((row) => row.id);
  const [children, featured] = await Promise.all([
    ids.length === 0
      ? Promise.resolve([] as CategoryRow[])
      : deps.database.db
          .select()
          .from(categories)
          .where(and(inArray(categories.parentId, ids), hasListableItemSql(options.rating)))
          .orderBy(asc(categories.position), asc(categories.name), asc(categories.id)),
    loadFeaturedItems(deps, ids, options.rating),
  ]);
  return {
    rows: page.rows.map((row) =>
      toCategory(
        row,
        children.filter((child) => child.parentId === row.id),
        featured,
      ),
    ),
    totalCount: page.totalCount,
  };
}

async function findTopCategory(deps: CatalogDeps, nameEncoded: string): Promise<CategoryRow> {
  const [row] = await deps.database.db
    .select()
    .from(categories)
    .where(and(isNull(categories.parentId), eq(categories.nameEncoded, nameEncoded.toLowerCase())))
    .limit(1);
  if (!row) throw new AppError('not_found', `No category named ${nameEncoded}`);
  return row;
}

/** `gifs/categories/{category}`: its subcategories, each with a featured item. */
export async function listSubcategories(
  deps: CatalogDeps,
  categoryEncoded: string,
  options: ListOptions,
): Promise<Page<Category>> {
  const parent = await findTopCategory(deps, categoryEncoded);
  const page = await pageOfCategories(deps, parent.id, options);
  const featured = await loadFeaturedItems(
    deps,
    page.rows.map((row) => row.id),
    options.rating,
  );
  return {
    rows: page.rows.map((row) => toCategory(row, [], featured)),
    totalCount: page.totalCount,
  };
}

/** `gifs/categories/{category}/{subcategory}`: the subcategory's items, most popular first. */
export async function listCategoryItems(
  deps: CatalogDeps,
  categoryEncoded: string,
  subcategoryEncoded: string,
  options: ListOptions,
): Promise<Page<CatalogItemRow>> {
  const parent = await findTopCategory(deps, categoryEncoded);
  const [child] = await deps.database.db
    .select()
    .from(categories)
    .where(
      and(
        eq(categories.parentId, parent.id),
        eq(categories.nameEncoded, subcategoryEncoded.toLowerCase()),
      ),
    )
    .limit(1);
  if (!child) {
    throw new AppError('not_found', `No subcategory named ${subcategoryEncoded} in ${parent.name}`);
  }
  const members = sql`
    SELECT i.id, i.trend_score FROM (${categoryMembersSql([child.id])}) m
      JOIN items i ON i.id = m.item_id
      WHERE ${listableItemsSql('i', { rating: options.rating })}`;
  const { db } = deps.database;
  const [result, counted] = await Promise.all([
    db.execute<{ id: string }>(sql`
      SELECT id FROM (${members}) listed ORDER BY trend_score DESC, id
      LIMIT ${options.limit} OFFSET ${options.offset}`),
    db.execute<{ total: string }>(sql`SELECT count(*) AS total FROM (${members}) listed`),
  ]);
  return {
    rows: await loadItemsByIds(
      deps,
      result.rows.map((row) => row.id),
    ),
    totalCount: Number(counted.rows[0]?.total ?? 0),
  };
}
