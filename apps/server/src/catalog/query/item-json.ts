import {
  itemDocumentFormat,
  itemDocumentWriteBatch,
  readItemDocuments,
  writeItemDocuments,
} from './item-documents.ts';
import type { ItemDocumentSource } from './item-documents.ts';
import type { CatalogDeps } from './items.ts';
import type { QueryDeps, SerializedItems } from './query-caches.ts';
import { groupByItem, readItemsWithCreators, readRenditions, serializeItem } from './serialize.ts';
import type { ItemViewer } from './serialize.ts';

export type { SerializedItems } from './query-caches.ts';

/** Items made cold: their JSON, and whether it may be kept as their document. */
interface MadeItem extends ItemDocumentSource {
  /** The item and its renditions were read at the same document version. */
  isKeepable: boolean;
}

/**
 * These items' JSON made from their rows: the items with their creators and the renditions
 * read at once (one round trip, not two). Unknown, hidden and half-made items are left out.
 */
async function makeItemsJson(
  deps: CatalogDeps,
  ids: readonly string[],
  viewer?: ItemViewer,
): Promise<MadeItem[]> {
  const [rows, renditionRows] = await Promise.all([
    readItemsWithCreators(deps, ids, viewer),
    readRenditions(deps, ids),
  ]);
  const renditionsByItem = groupByItem(renditionRows);
  return rows.flatMap(({ item: row, creator, itemVersion, creatorVersion }) => {
    const renditions = renditionsByItem.get(row.id) ?? [];
    const item = serializeItem(deps.config, row, renditions, creator);
    if (!item) return [];
    return [
      {
        item: row,
        renditions,
        creator,
        itemVersion,
        creatorVersion,
        json: JSON.stringify(item),
        // Two statements, two snapshots: a rendition committed between them is in one only.
        isKeepable: renditions.every((rendition) => rendition.itemVersion === itemVersion),
      },
    ];
  });
}

/**
 * `data` for these ids, serialized, in the order given (unknown ids left out). Each item's
 * JSON comes from the first that has it: kept in memory (per app, services.itemJson) while the
 * catalog version has not moved; its document in the database while still valid
 * (item-documents.ts); made from its rows, and then kept as its document after the response.
 * Counting views and favorites moves none of them (docs/catalog.md, "Caches and versions").
 */
export async function serializeItemsJson(
  deps: QueryDeps,
  ids: readonly string[],
): Promise<SerializedItems> {
  if (ids.length === 0) return { json: '[]', count: 0 };
  const { itemJson: cache, itemDocuments: documents } = deps.services;
  const versions = await deps.services.versions.read();
  const jsonById = new Map<string, string>();
  let missing: string[] = [];
  for (const id of new Set(ids)) {
    const json = cache.get(id, versions);
    if (json === undefined) missing.push(id);
    else jsonById.set(id, json);
  }
  if (missing.length > 0 && documents.isEnabled) {
    const kept = await readItemDocuments(deps.database, deps.config, documents.format, missing);
    for (const [id, json] of kept) {
      jsonById.set(id, json);
      cache.set(id, versions, json);
    }
    missing = missing.filter((id) => !kept.has(id));
  }
  if (missing.length > 0) {
    const made = await makeItemsJson(deps, missing);
    for (const { item, json } of made) {
      jsonById.set(item.id, json);
      cache.set(item.id, versions, json);
    }
    documents.keep(made.filter((item) => item.isKeepable));
  }
  const parts = ids.flatMap((id) => jsonById.get(id) ?? []);
  return { json: `[${parts.join(',')}]`, count: parts.length };
}

/**
 * One item as `viewer` may see it, made from its rows, for a by-id read the shared path found
 * nothing for: a hidden or private item of theirs (any, for an admin). Never kept in memory or
 * as a document, so no answer to anyone else can carry it (docs/uploads.md, "Visibility").
 */
export async function serializeWithheldItemJson(
  deps: CatalogDeps,
  id: string,
  viewer: ItemViewer,
): Promise<SerializedItems> {
  const [made] = await makeItemsJson(deps, [id], viewer);
  return made ? { json: `[${made.json}]`, count: 1 } : { json: '[]', count: 0 };
}

/** The most popular ITEM_DOCUMENTS_PER_TYPE items of each type that may be shown (kept). */
const keptItemsSql = `
  SELECT k.id FROM unnest(ARRAY['gif', 'sticker', 'text']) AS t(type)
  CROSS JOIN LATERAL (
    SELECT id FROM items
    WHERE type = t.type AND hidden_at IS NULL AND visibility <> 'private' AND NOT is_dynamic
    ORDER BY trend_score DESC, id LIMIT $1
  ) k`;

export interface ItemDocumentsRefresh {
  /** Documents removed: of items no longer among the kept, or of an older format. */
  removed: number;
  /** Documents made: of kept items without one, or with a stale one. */
  made: number;
}

/**
 * Keeps the documents of the most popular ITEM_DOCUMENTS_PER_TYPE items of each type, and only
 * those (docs/catalog.md, "Item documents"): removes the others and those of another format,
 * then makes the missing and stale ones, a write's batch at a time. Run by the catalog's
 * maintenance (documents written back after cold pages in between are pruned by the next run).
 */
export async function refreshItemDocuments(deps: CatalogDeps): Promise<ItemDocumentsRefresh> {
  const { database, config } = deps;
  const perType = config.itemDocumentsPerType;
  const format = itemDocumentFormat(config);
  const batch = itemDocumentWriteBatch;
  const removed = await database.pool.query(
    `WITH kept AS (${keptItemsSql})
     DELETE FROM item_documents d
     WHERE d.format <> $2 OR NOT EXISTS (SELECT 1 FROM kept WHERE kept.id = d.item_id)`,
    [perType, format],
  );
  if (perType === 0) return { removed: removed.rowCount ?? 0, made: 0 };
  const stale = await database.pool.query<{ id: string }>(
    `WITH kept AS (${keptItemsSql})
     SELECT kept.id FROM kept
     JOIN items i ON i.id = kept.id
     LEFT JOIN creators c ON c.id = i.creator_id
     LEFT JOIN item_documents d ON d.item_id = kept.id AND d.format = $2
       AND d.item_version = i.document_version
       AND d.creator_version = coalesce(c.document_version, 0)
     WHERE d.item_id IS NULL`,
    [perType, format],
  );
  let made = 0;
  const ids = stale.rows.map((row) => row.id);
  for (let start = 0; start < ids.length; start += batch) {
    const items = await makeItemsJson(deps, ids.slice(start, start + batch));
    const keepable = items.filter((item) => item.isKeepable);
    made += await writeItemDocuments(database, config, format, keepable);
  }
  return { removed: removed.rowCount ?? 0, made };
}
