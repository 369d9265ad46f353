import { createHash } from 'node:crypto';
import { renditionNames } from '@sticky/contracts';
import { sql } from 'drizzle-orm';
import type { AppConfig } from '../../config/env.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { executePrepared } from '../../db/prepared.ts';
import { serializeItem } from './serialize.ts';
import type {
  CreatorRow,
  ItemWithCreator,
  RenditionRow,
  SerializableItemRow,
} from './serialize.ts';

/**
 * Item documents (docs/catalog.md, "Item documents"): an item's JSON kept in the database, so
 * a cold page of items is one indexed read instead of two reads and serializing 17 renditions
 * per item. A document is text with the site's URLs as placeholders, tagged with what it was
 * made from: the item's and its creator's document versions (moved by triggers, migration
 * 0015) and the serializer's format. It is read only while all three still hold, in the same
 * statement that checks them, so a change that commits at any moment never sends a stale one.
 */

/** Stand-ins for the site's URL and the media's, as JSON.stringify writes them (`\u0002`). */
const siteMarker = '\u0002';
const mediaMarker = '\u0003';
const siteMarkerText = JSON.stringify(siteMarker).slice(1, -1);
const mediaMarkerText = JSON.stringify(mediaMarker).slice(1, -1);

/** Moved by hand when a change of the serializer would not show in the sample item below. */
const documentRevision = 1;

/** The config an item's document is serialized with: its URLs start with the markers. */
function markerConfigOf(config: AppConfig): AppConfig {
  return { ...config, publicUrl: siteMarker, mediaPublicUrl: mediaMarker };
}

/** A document's text with this site's URLs in place of the markers. */
export function fillItemDocument(config: AppConfig, document: string): string {
  const site = JSON.stringify(config.publicUrl).slice(1, -1);
  const media = JSON.stringify(config.mediaPublicUrl ?? `${config.publicUrl}/media`).slice(1, -1);
  return document.split(siteMarkerText).join(site).split(mediaMarkerText).join(media);
}

/**
 * The serializer's format: a digest of a sample item's document, with every rendition name
 * and format and a creator. Documents of another format (made before a change of the
 * serializer) are never read, and the maintenance replaces them. The URLs are markers, so the
 * format is the same whatever the config.
 */
export function itemDocumentFormat(config: AppConfig): string {
  const date = new Date(Date.UTC(2020, 1, 3, 4, 5, 6));
  const formats = ['gif', 'webp', 'mp4', 'webm', 'png', 'jpeg'] as const;
  const renditions: RenditionRow[] = renditionNames.flatMap((name, index) =>
    formats.map((format) => ({
      itemId: 'sampleitem',
      name,
      format,
      width: 100 + index,
      height: 50 + index,
      frames: 10,
      bytes: 1000 + index,
      path: `sa/mp/${name}.${format}`,
    })),
  );
  const creator: CreatorRow = {
    id: 1,
    username: 'sample',
    displayName: 'Sample',
    avatarUrl: 'https://example.org/a.png',
    description: 'd',
    profileUrl: 'https://example.org/p',
    websiteUrl: 'https://example.org',
    isVerified: true,
  };
  const item: SerializableItemRow = {
    id: 'sampleitem',
    type: 'sticker',
    slug: 'sample-sampleitem',
    title: 'Sample',
    tags: ['sample'],
    altText: 'A sample',
    caption: 'Sample words',
    rating: 'pg',
    sourceUrl: 'https://example.org/source',
    creatorId: 1,
    frames: 10,
    sha256: 'f'.repeat(64),
    isIndexable: true,
    isDynamic: false,
    createdAt: date,
    updatedAt: date,
    trendingAt: date,
  };
  const sample = JSON.stringify(serializeItem(markerConfigOf(config), item, renditions, creator));
  return createHash('sha256')
    .update(`${documentRevision}\n${sample}`)
    .digest('base64url')
    .slice(0, 16);
}

/** An item as read for its JSON, with the versions of the snapshot it was read in. */
export interface ItemDocumentSource extends ItemWithCreator {
  renditions: readonly RenditionRow[];
  /** The JSON sent for it, made with the app's own config. */
  json: string;
}

interface ItemDocumentRow {
  id: string;
  itemVersion: number;
  creatorVersion: number;
  document: string;
}

/**
 * The document of each source, when filling it in gives back exactly the JSON that was sent:
 * not when the item's own text holds a marker (a title with `\u0002` in it), which would be
 * taken for a URL.
 */
function documentsOf(config: AppConfig, sources: readonly ItemDocumentSource[]) {
  const markerConfig = markerConfigOf(config);
  const byId = new Map<string, ItemDocumentRow>();
  for (const source of sources) {
    const made = serializeItem(markerConfig, source.item, source.renditions, source.creator);
    if (!made) continue;
    const document = JSON.stringify(made);
    if (fillItemDocument(config, document) !== source.json) continue;
    byId.set(source.item.id, {
      id: source.item.id,
      itemVersion: source.itemVersion,
      creatorVersion: source.creatorVersion,
      document,
    });
  }
  return [...byId.values()];
}

/**
 * Writes these documents on the primary, each only while its item and creator are still at
 * the versions it was made from (a document made from an older snapshot is left out, never
 * written over a newer one). Returns how many were written.
 */
export async function writeItemDocuments(
  database: DatabaseHandle,
  config: AppConfig,
  format: string,
  sources: readonly ItemDocumentSource[],
): Promise<number> {
  const rows = documentsOf(config, sources);
  if (rows.length === 0) return 0;
  const result = await database.pool.query(
    `INSERT INTO item_documents (item_id, format, item_version, creator_version, json)
     SELECT d.id, $1, d.item_version, d.creator_version, d.json
     FROM unnest($2::text[], $3::int[], $4::int[], $5::text[])
       AS d(id, item_version, creator_version, json)
     JOIN items i ON i.id = d.id AND i.document_version = d.item_version
     LEFT JOIN creators c ON c.id = i.creator_id
     WHERE coalesce(c.document_version, 0) = d.creator_version
     ON CONFLICT (item_id) DO UPDATE SET format = excluded.format,
       item_version = excluded.item_version, creator_version = excluded.creator_version,
       json = excluded.json`,
    [
      format,
      rows.map((row) => row.id),
      rows.map((row) => row.itemVersion),
      rows.map((row) => row.creatorVersion),
      rows.map((row) => row.document),
    ],
  );
  return result.rowCount ?? 0;
}

/**
 * The documents of these items that are still valid, filled in with the site's URLs: of
 * visible items, in this format, at the item's and creator's current versions (one statement,
 * so the check and the text come from one snapshot).
 */
export async function readItemDocuments(
  database: DatabaseHandle,
  config: AppConfig,
  format: string,
  ids: readonly string[],
): Promise<Map<string, string>> {
  // Prepared: every cold page of items runs it, and planning its joins is a third of its
  // time (docs/architecture.md, "Runtime").
  const result = await executePrepared<{ id: string; json: string }>(
    database.db,
    sql`
    SELECT d.item_id AS id, d.json FROM item_documents d
    JOIN items i ON i.id = d.item_id
    LEFT JOIN creators c ON c.id = i.creator_id
    WHERE d.item_id = ANY(${sql.param(ids)}::text[]) AND d.format = ${format}
      AND i.hidden_at IS NULL AND i.visibility <> 'private' AND d.item_version = i.document_version
      AND d.creator_version = coalesce(c.document_version, 0)`,
  );
  const byId = new Map<string, string>();
  for (const row of result.rows) byId.set(row.id, fillItemDocument(config, row.json));
  return byId;
}

export interface ItemDocumentWriterLogger {
  warn: (object: object, message?: string) => void;
}

/** Documents written back after a cold page, off the request's path (per app). */
export interface ItemDocumentWriter {
  /** This app's serializer format. */
  format: string;
  /** False when ITEM_DOCUMENTS_PER_TYPE is 0: nothing is read or written. */
  isEnabled: boolean;
  /** Queues these for writing after the response (a page's items made cold). */
  keep: (sources: readonly ItemDocumentSource[]) => void;
  /** Waits until what was queued is written (tests). */
  flush: () => Promise<void>;
  /** Writes what is queued, then takes no more. */
  close: () => Promise<void>;
}

/** At most this many documents in one write. */
export const itemDocumentWriteBatch = 200;

/**
 * At most this many waiting (about 10 MB of rows): past it, a burst of cold pages writes no
 * more until the queue drains; their items are made again next time, as without documents.
 */
const maxQueued = 2_000;

/**
 * Queues documents and writes them in batches on the next turn of the event loop: a cold page
 * never waits for its documents to be written. A failed write is logged and dropped (the item
 * is serialized again next time, as without documents).
 */
export function createItemDocumentWriter(options: {
  database: DatabaseHandle;
  config: AppConfig;
  log?: ItemDocumentWriterLogger;
}): ItemDocumentWriter {
  const { database, config, log } = options;
  const isEnabled = config.itemDocumentsPerType > 0;
  const format = itemDocumentFormat(config);
  let queue: ItemDocumentSource[] = [];
  let writing: Promise<void> | undefined;
  let isClosed = false;
  const drain = async () => {
    while (queue.length > 0) {
      const batch = queue.slice(0, itemDocumentWriteBatch);
      queue = queue.slice(itemDocumentWriteBatch);
      await writeItemDocuments(database, config, format, batch).catch((error: unknown) => {
        log?.warn({ err: error, items: batch.length }, 'could not keep item documents');
      });
    }
  };
  const start = () => {
    writing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(drain).finally(() => {
      writing = undefined;
    });
    return writing;
  };
  return {
    format,
    isEnabled,
    keep: (sources) => {
      if (!isEnabled || isClosed || sources.length === 0) return;
      queue.push(...sources.slice(0, Math.max(0, maxQueued - queue.length)));
      void start();
    },
    flush: async () => {
      while (writing) await writing;
    },
    close: async () => {
      isClosed = true;
      while (writing) await writing;
    },
  };
}
