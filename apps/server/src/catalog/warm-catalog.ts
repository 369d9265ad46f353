import type { DatabaseHandle } from '../db/client.ts';

/**
 * The tables a cold search, related page or item page reads, in the order they are worth
 * keeping in PostgreSQL's buffer cache (docs/scaling.md, "Memory"): the words' indexes and the
 * items' rows (every match of a slice is read, to count and order it), the item documents
 * (a page's JSON), then the small lists and words. Renditions are not among them: at 17 rows an
 * item they are three times the rest, and a page whose items have documents does not read them.
 */
const warmTables = [
  'items',
  'item_documents',
  'related_keys',
  'related_key_names',
  'search_terms',
  'search_term_variants',
  'creators',
] as const;

/** Items' indexes that no cold page reads (imports, uploads, the title's trigrams). */
const coldItemIndexes = new Set([
  'items_sha256_unique',
  'items_title_trgm_idx',
  'items_owner_idx',
  'items_dynamic_created_idx',
  'items_type_created_idx',
  // Superseded by the per-type tier indexes (migrations 0008 and 0012) for every search.
  'items_search_idx',
  'items_search_stem_idx',
  'items_tags_idx',
  'items_gif_search_idx',
  'items_gif_search_stem_idx',
  'items_sticker_search_idx',
  'items_sticker_search_stem_idx',
  'items_text_search_idx',
  'items_text_search_stem_idx',
]);

/** Loaded this many blocks (16 MB) at a time, so closing the app waits for one chunk at most. */
const chunkBlocks = 2_048;

/** The share of the buffer cache the catalog may take: the rest is left to writes and joins. */
const bufferShare = 0.5;

export interface CatalogWarmUp {
  /** False when pg_prewarm is not installed (an external database without it). */
  isAvailable: boolean;
  /** Relations loaded, most useful first. */
  loaded: string[];
  /** Relations left out: they did not fit in the share of the buffer cache left. */
  skipped: string[];
  bytes: number;
  ms: number;
}

interface Relation {
  name: string;
  blocks: number;
}

/**
 * Reads the catalog's hot tables into PostgreSQL's buffer cache with pg_prewarm, most useful
 * first, as far as half of the cache holds them (docs/scaling.md, "Memory"). The catalog
 * maintenance runs it after start and every hour: a restart, a large import or a backup can
 * leave the cache full of other pages, and a search that finds its matches' rows there takes
 * about a third less time at a million items. The embedded PostgreSQL gets the extension; an
 * external database is warmed only when its operator installed it (we never install an
 * extension there). `isCancelled` is asked between chunks.
 */
export async function warmCatalogTables(
  database: Pick<DatabaseHandle, 'pool'>,
  options: { canInstall: boolean; isCancelled?: () => boolean },
): Promise<CatalogWarmUp> {
  const started = performance.now();
  const summary: CatalogWarmUp = {
    isAvailable: false,
    loaded: [],
    skipped: [],
    bytes: 0,
    ms: 0,
  };
  const { pool } = database;
  if (options.canInstall) await pool.query('CREATE EXTENSION IF NOT EXISTS pg_prewarm');
  const installed = await pool.query("SELECT 1 FROM pg_extension WHERE extname = 'pg_prewarm'");
  if (installed.rows.length === 0) return { ...summary, ms: performance.now() - started };
  summary.isAvailable = true;
  const cache = await pool.query<{ blocks: string }>(
    "SELECT setting AS blocks FROM pg_settings WHERE name = 'shared_buffers'",
  );
  let budget = Math.floor(Number(cache.rows[0]?.blocks ?? 0) * bufferShare);
  for (const relation of await listRelations(database)) {
    if (options.isCancelled?.()) break;
    if (relation.blocks > budget) {
      summary.skipped.push(relation.name);
      continue;
    }
    for (let first = 0; first < relation.blocks; first += chunkBlocks) {
      if (options.isCancelled?.()) break;
      const last = Math.min(relation.blocks, first + chunkBlocks) - 1;
      await pool.query("SELECT pg_prewarm($1::regclass, 'buffer', 'main', $2, $3)", [
        relation.name,
        first,
        last,
      ]);
    }
    budget -= relation.blocks;
    summary.bytes += relation.blocks * 8_192;
    summary.loaded.push(relation.name);
  }
  return { ...summary, ms: performance.now() - started };
}

/**
 * The hot tables' relations in the order they are loaded: each table's indexes that cold pages
 * read, its rows, then its TOAST (large values: documents, long lists), with their sizes.
 */
async function listRelations(database: Pick<DatabaseHandle, 'pool'>): Promise<Relation[]> {
  const result = await database.pool.query<{ name: string; blocks: string }>(
    `SELECT r.oid::regclass::text AS name,
       pg_relation_size(r.oid) / current_setting('block_size')::int AS blocks
     FROM unnest($1::text[]) WITH ORDINALITY AS t(name, position)
     JOIN pg_class c ON c.oid = to_regclass(t.name)
     CROSS JOIN LATERAL (
       SELECT i.indexrelid AS oid, 0 AS part FROM pg_index i WHERE i.indrelid = c.oid
       UNION ALL SELECT c.oid, 1
       UNION ALL SELECT c.reltoastrelid, 2 WHERE c.reltoastrelid <> 0
     ) r
     ORDER BY t.position, r.part, r.oid::regclass::text`,
    [warmTables],
  );
  return result.rows
    .filter((row) => !coldItemIndexes.has(row.name))
    .map((row) => ({ name: row.name, blocks: Number(row.blocks) }))
    .filter((row) => row.blocks > 0);
}
