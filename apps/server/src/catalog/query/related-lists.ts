import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { Rating } from '@sticky/contracts';
import { executePrepared } from '../../db/prepared.ts';
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

/**
 * The layout of the lists' entries this code reads (related_lists_state.list_format): lists
 * built with another are rebuilt at start, and the slices answer meanwhile.
 */
export const relatedListFormat = 3;

/**
 * Whether related_lists_state (as `alias`) says the lists are built as this code reads them:
 * with this list length and entry layout, and with entries written with the lists (a server
 * from before migration 0018 rebuilds the lists alone, moving `built_changes` only). SQL,
 * never null; whether they are also fresh is `built_changes = changes`.
 */
export const listsBuiltSql = (alias: string): string =>
  `coalesce(${alias}.built_changes IS NOT NULL AND ${alias}.list_length = ${relatedListLength}
    AND ${alias}.list_format = ${relatedListFormat}
    AND ${alias}.entries_built_changes = ${alias}.built_changes, false)`;

/**
 * The part of each list the first page reads with the source (`entries`): its 60, and room
 * for the source and a few items the filter leaves out. The rest (`rest_entries`) only when a
 * head keeps fewer than 60 of its key's items: a list's entries are most of what the page reads.
 */
export const relatedListHead = 64;

/**
 * What the first related page ranks a listed item by, as it was when the lists were built:
 * `[tier, trend, rating, keyIds, titleKeyIds]`, its popularity, its rating, the numbers of its
 * keys (related_key_names: its tags as `t:` keys and every English stem of its text as `w:`
 * keys) and of the stems in its title. The first page reads no item rows: what every listed
 * item shares with the source is in its entry (docs/catalog.md, "Related").
 */
export type ListEntry = [
  tier: number,
  trend: number,
  rating: Rating,
  keyIds: number[],
  titleKeyIds: number[],
];

/** The source item and its keys' lists, as read by `readSourceLists`. */
export interface SourceLists {
  tags: string[];
  words: string[];
  /**
   * Built, with the list length and entry layout this code reads, and the entries written with
   * the lists (not by a server from before migration 0018, which rebuilds the lists alone).
   */
  hasLists: boolean;
  /** Items added, changed or deleted since the lists were built (noted by triggers), up to a limit. */
  changedItems: number;
  /** Their ids, when there are no more than `changedItemsRead`: read as they are now. */
  changedIds: string[];
  /** The numbers of the source's keys (`t:tag`, `w:stem`) that have one. */
  keyIds: Map<string, number>;
  lists: KeyList[];
}

export interface KeyList {
  key: string;
  type: ItemType;
  /** The most popular first, when built: the head, or the whole list once `readListRests` read it. */
  ids: string[];
  /** Each of `ids`' entry, in their order; null for an item gone while they were built. */
  entries: Array<ListEntry | null>;
  /** How many items the list holds (at most the list length). */
  listed: number;
  /** Every listable item of the type with the key, when built. */
  count: number;
}

/** An item's keys: its tags and the English stems of its title (related.ts). */
export const keysOf = (tags: readonly string[], words: readonly string[]) => [
  ...tags.map((tag) => `t:${tag}`),
  ...words.map((word) => `w:${word}`),
];

/**
 * The source item's tags and title stems with its keys' lists and their entries, the items
 * changed since they were built, in one statement (undefined for an unknown id): the whole of
 * what an item's first related page reads before its items' documents.
 */
export async function readSourceLists(
  deps: CatalogDeps,
  itemId: string,
  types: readonly ItemType[],
): Promise<SourceLists | undefined> {
  // Prepared (its text depends only on how many types): planning it was a third of its time
  // (docs/architecture.md, "Runtime").
  const result = await executePrepared<{
    tags: string[];
    words: string[];
    has_lists: boolean | null;
    changed_ids: string[];
    key_ids: Record<string, number> | null;
    lists: KeyList[] | null;
  }>(
    deps.database.db,
    sql`
    WITH source AS (
      SELECT ARRAY(SELECT DISTINCT t FROM unnest(tags) t) AS tags,
        tsvector_to_array(to_tsvector('sticky_english', title)) AS words
      -- A hidden or private item has no related page: its id is 404 (docs/uploads.md, "Visibility").
      FROM items WHERE id = ${itemId} AND hidden_at IS NULL AND visibility <> 'private'
    ), source_keys AS (
      SELECT 't:' || t AS key FROM source, unnest(source.tags) t
      UNION ALL SELECT 'w:' || w FROM source, unnest(source.words) w
    )
    SELECT s.tags, s.words,
      ${sql.raw(listsBuiltSql('st'))} AS has_lists,
      ARRAY(SELECT item_id FROM related_lists_changes LIMIT ${changedItemsRead + 1}) AS changed_ids,
      (SELECT json_object_agg(n.key, n.id) FROM related_key_names n
        WHERE n.key IN (SELECT key FROM source_keys)) AS key_ids,
      (SELECT json_agg(json_build_object('key', k.key, 'type', k.type,
          'ids', k.item_ids[1:${relatedListHead}], 'entries', k.entries,
          'listed', cardinality(k.item_ids), 'count', k.item_count))
        FROM related_keys k
        WHERE k.type IN (${typeList(types)}) AND k.key IN (SELECT key FROM source_keys)) AS lists
    FROM source s LEFT JOIN related_lists_state st ON true`,
  );
  const row = result.rows[0];
  if (!row) return undefined;
  const lists = row.lists ?? [];
  return {
    tags: row.tags,
    words: row.words,
    hasLists: row.has_lists === true && lists.every((list) => Array.isArray(list.entries)),
    changedItems: row.changed_ids.length,
    changedIds: [...new Set(row.changed_ids)],
    keyIds: new Map(Object.entries(row.key_ids ?? {})),
    lists,
  };
}

/**
 * The rest of these lists, past their heads: each list then holds all its ids and entries. One
 * statement, when a head keeps fewer than 60 of its key's items (a rating ceiling, hidden items).
 */
export async function readListRests(deps: CatalogDeps, lists: readonly KeyList[]): Promise<void> {
  const result = await executePrepared<{
    key: string;
    type: ItemType;
    ids: string[];
    entries: Array<ListEntry | null> | null;
  }>(
    deps.database.db,
    sql`
    SELECT k.key, k.type, k.item_ids[${relatedListHead + 1}:] AS ids, k.rest_entries AS entries
    FROM related_keys k
    JOIN unnest(${sql.param(lists.map((list) => list.key))}::text[],
      ${sql.param(lists.map((list) => list.type))}::text[]) AS l(key, type)
      ON k.key = l.key AND k.type = l.type`,
  );
  for (const row of result.rows) {
    const list = lists.find(
      (candidate) => candidate.key === row.key && candidate.type === row.type,
    );
    if (!list || list.ids.length !== relatedListHead) continue;
    list.ids.push(...row.ids);
    list.entries.push(...row.ids.map((_, index) => row.entries?.[index] ?? null));
  }
}

const typeList = (types: readonly ItemType[]): SQL =>
  sql.join(
    types.map((type) => sql`${type}`),
    sql`, `,
  );
