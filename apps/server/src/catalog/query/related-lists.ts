import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { CatalogDeps, ItemType } from './items.ts';

/**
 * Each related key's most popular listable items, per item type, built ahead (docs/catalog.md,
 * "Related"): an item's first related page reads its keys' lists, one indexed read, instead of
 * slicing the catalog for each key. A key is `t:<tag>` or `w:<English stem>`, as related.ts
 * names them; a word key holds the items whose stems include it anywhere (title, tags, alt
 * text), as the slices match it. A job builds them (catalog/import/related-lists-job.ts).
 */

/**
 * Ids kept per key and type: the first page takes 60 per key, and room is left for the source
 * itself and for what a rating ceiling or a hidden item takes out.
 */
export const relatedListLength = 100;

/**
 * Past this many items changed since the lists were built (an import under way), reading them
 * beside the lists costs more than the slices: the slices answer until the next rebuild.
 */
export const changedItemsRead = 1_000;

/** The source item and its keys' lists, as read by `readSourceLists`. */
export interface SourceLists {
  tags: string[];
  words: string[];
  /** Built, with the list length this code reads. */
  hasLists: boolean;
  /** Items added or changed since the lists were built (noted by triggers), up to a limit. */
  changedItems: number;
  lists: KeyList[];
}

export interface KeyList {
  key: string;
  type: ItemType;
  /** The most popular first, when built. */
  ids: string[];
  /** Every listable item of the type with the key, when built. */
  count: number;
}

/** An item's keys: its tags and the English stems of its title (related.ts). */
export const keysOf = (tags: readonly string[], words: readonly string[]) => [
  ...tags.map((tag) => `t:${tag}`),
  ...words.map((word) => `w:${word}`),
];

/**
 * The source item's tags and title stems with its keys' lists, in one statement (undefined for
 * an unknown id).
 */
export async function readSourceLists(
  deps: CatalogDeps,
  itemId: string,
  types: readonly ItemType[],
): Promise<SourceLists | undefined> {
  const result = await deps.database.db.execute<{
    tags: string[];
    words: string[];
    has_lists: boolean | null;
    changed_items: number;
    lists: KeyList[] | null;
  }>(sql`
    WITH source AS (
      SELECT ARRAY(SELECT DISTINCT t FROM unnest(tags) t) AS tags,
        tsvector_to_array(to_tsvector('sticky_english', title)) AS words
      FROM items WHERE id = ${itemId}
    )
    SELECT s.tags, s.words,
      st.built_changes IS NOT NULL AND st.list_length = ${relatedListLength} AS has_lists,
      (SELECT count(*)::int FROM (SELECT 1 FROM related_lists_changes
        LIMIT ${changedItemsRead + 1}) c) AS changed_items,
      (SELECT json_agg(json_build_object('key', k.key, 'type', k.type, 'ids', k.item_ids,
          'count', k.item_count))
        FROM related_keys k
        WHERE k.type IN (${typeList(types)})
          AND k.key IN (SELECT 't:' || t FROM unnest(s.tags) t
            UNION ALL SELECT 'w:' || w FROM unnest(s.words) w)) AS lists
    FROM source s LEFT JOIN related_lists_state st ON true`);
  const row = result.rows[0];
  if (!row) return undefined;
  return {
    tags: row.tags,
    words: row.words,
    hasLists: row.has_lists === true,
    changedItems: Number(row.changed_items),
    lists: row.lists ?? [],
  };
}

const typeList = (types: readonly ItemType[]): SQL =>
  sql.join(
    types.map((type) => sql`${type}`),
    sql`, `,
  );
