import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { PoolClient } from 'pg';
import type { DatabaseHandle } from '../../apps/server/src/db/client.ts';
import { refreshRelatedLists } from '../../apps/server/src/catalog/import/related-lists-job.ts';
import { trendHalfLifeDays } from '../../apps/server/src/catalog/query/trending.ts';
import { metadataDir } from '../lib/paths.ts';

/**
 * A deterministic synthetic catalog: item n (1, 2, 3, …) is always the same row, so the 100k
 * catalog is the 10k one plus 90k more, on any machine. Words come from the English emoji
 * annotations (CLDR labels and tags): titles like "Smiling face with sunglasses" or "Party
 * grinning face", 2–10 tags each. Rows only (items and their GIPHY renditions), no files.
 */

export interface VocabularyRow {
  label: string;
  tags: string[];
  group: string;
}

const annotationsFile = path.join(metadataDir, 'emoji-annotations.en.tsv');

/** One row per base emoji (skin-tone variants and regional indicators left out). */
export function readVocabulary(file = annotationsFile): VocabularyRow[] {
  const [header, ...lines] = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
  const columns = header!.split('\t');
  const at = (name: string) => columns.indexOf(name);
  const rows: VocabularyRow[] = [];
  for (const line of lines) {
    const cells = line.split('\t');
    const label = cells[at('label')]?.trim() ?? '';
    if (!label || cells[at('base_hexcode')] || label.startsWith('regional indicator')) continue;
    const tags = (cells[at('tags')] ?? '')
      .split('|')
      .map((tag) => tag.trim().toLowerCase())
      .filter(Boolean);
    if (tags.length === 0) continue;
    rows.push({ label, tags, group: (cells[at('group')] ?? '').trim().toLowerCase() });
  }
  return rows;
}

/** Item n's id (18 characters, like GIPHY's), computable without asking the database. */
export function syntheticItemId(n: number): string {
  return createHash('md5').update(`sticky-bench-${n}`).digest('hex').slice(0, 18);
}

const creatorCount = 500;
const batchSize = 25_000;

/** The epoch trending.ts scales scores from (2025-01-01 UTC), and its time constant. */
const trendEpochSeconds = Date.UTC(2025, 0, 1) / 1000;
const trendTauSeconds = (trendHalfLifeDays * 86_400) / Math.LN2;

/**
 * Every random choice of item g is a bit field of hashint8extended(g, salt), PostgreSQL's
 * portable seeded hash, so the rows are the same on every run. Mix (per 1024):
 * type gif 600 / sticker 330 / text 94; rating g 700 / pg 180 / pg-13 100 / r 44;
 * 30% never viewed (trend score 0), the rest Zipf-like; 40% with a creator; 1% not indexable.
 */
const insertBatchSql = `
WITH src AS (
  SELECT g,
    hashint8extended(g, 11) AS h1, hashint8extended(g, 12) AS h2,
    hashint8extended(g, 13) AS h3, hashint8extended(g, 14) AS h4
  FROM generate_series($1::bigint, $2::bigint) g
), picked AS (
  SELECT s.*, a.label AS a_label, a.tags AS a_tags, a.grp AS a_grp, b.tags AS b_tags,
    (h1 & 1023) AS r_title, ((h1 >> 10) & 1023) AS r_type, ((h1 >> 20) & 1023) AS r_rating,
    ((h1 >> 30) & 1023) AS r_trend, ((h1 >> 40) & 1023) AS r_creator, ((h1 >> 50) & 1023) AS r_misc,
    ((h4 >> 4) & 16777215)::float8 / 16777216 AS u_weight
  FROM src s
  -- Zipf-like word popularity: low vocabulary rows (smileys) are picked far more often.
  JOIN bench.vocab a ON a.n = floor($3::int * power(((h2 & 16777215)::float8 / 16777216), 2))::int
  JOIN bench.vocab b ON b.n = ((h3 & 2147483647) % $3::int)::int
), shaped AS (
  SELECT p.*,
    CASE WHEN r_type < 600 THEN 'gif' WHEN r_type < 930 THEN 'sticker' ELSE 'text' END AS type,
    CASE WHEN r_rating < 700 THEN 'g' WHEN r_rating < 880 THEN 'pg'
      WHEN r_rating < 980 THEN 'pg-13' ELSE 'r' END AS rating,
    CASE WHEN r_title < 512 THEN a_label
      WHEN r_title < 820 THEN b_tags[1 + ((h3 >> 32) & 255) % cardinality(b_tags)] || ' ' || a_label
      ELSE a_label || ' ' || a_tags[1 + ((h3 >> 40) & 255) % cardinality(a_tags)] END AS raw_title,
    substr(md5('sticky-bench-' || g), 1, 18) AS item_id,
    now() - make_interval(secs => ((h2 >> 24) & 67108863)::float8 * 0.94) AS created,
    now() - make_interval(secs => ((h3 >> 8) & 4194303)::float8 * 0.6) AS viewed
  FROM picked p
), shaped_rows AS (
  SELECT item_id, type, rating,
    upper(left(raw_title, 1)) || substr(raw_title, 2) AS title,
    ARRAY(SELECT DISTINCT t FROM unnest(
      ARRAY(SELECT t FROM unnest(a_tags) WITH ORDINALITY u(t, k) WHERE k = 1 OR ((h4 >> (k % 48 + 8)::int) & 3) > 0)
      || CASE WHEN r_title >= 512 AND r_title < 820 THEN ARRAY[b_tags[1]] ELSE ARRAY[]::text[] END
      || ARRAY[a_grp]) t WHERE t <> '') AS tags,
    CASE type WHEN 'gif' THEN CASE WHEN r_misc & 1 = 0 THEN 480 ELSE 400 END
      WHEN 'sticker' THEN CASE WHEN r_misc & 2 = 0 THEN 512 ELSE 256 END ELSE 320 END AS width,
    CASE type WHEN 'gif' THEN CASE WHEN r_misc & 1 = 0 THEN 270 ELSE 300 END
      WHEN 'sticker' THEN CASE WHEN r_misc & 2 = 0 THEN 512 ELSE 256 END ELSE 180 END AS height,
    (8 + (r_misc >> 2) % 83)::int AS frames,
    CASE WHEN type = 'gif' AND r_misc & 16 = 0 THEN 'gif'
      WHEN type = 'sticker' AND r_misc & 48 = 0 THEN 'gif' ELSE 'webp' END AS original_format,
    CASE WHEN r_trend < 307 THEN 0
      ELSE ln(1 + floor(1 / power(1 - u_weight * 0.999, 1.1))) + 0.01
        + (extract(epoch FROM viewed) - ${trendEpochSeconds}) / ${trendTauSeconds} END AS trend_score,
    CASE WHEN r_trend < 307 THEN NULL ELSE viewed END AS trending_at,
    created, g,
    CASE WHEN r_creator < 410 THEN $4::int + (r_creator % ${creatorCount}) END AS creator_id,
    r_misc % 100 <> 7 AS is_indexable
  FROM shaped
), new_items AS (
  INSERT INTO items (id, type, slug, title, tags, alt_text, rating, rating_rank, creator_id,
    width, height, frames, duration_ms, bytes, sha256, original_format, is_indexable,
    license, attribution, trend_score, trending_at, created_at, updated_at)
  SELECT item_id, type,
    trim(both '-' from regexp_replace(lower(title), '[^a-z0-9]+', '-', 'g')) || '-' || item_id,
    title, tags,
    CASE type WHEN 'gif' THEN 'Animated GIF: ' WHEN 'sticker' THEN 'Animated sticker: '
      ELSE 'Animated text that reads ' END || title || '.',
    rating, CASE rating WHEN 'g' THEN 0 WHEN 'pg' THEN 1 WHEN 'pg-13' THEN 2 ELSE 3 END,
    creator_id, width, height, frames, frames * 70,
    (width * height * frames / 5)::bigint,
    md5('item-' || g) || md5('sha-' || g), original_format, is_indexable,
    'CC-BY-4.0', 'Sticky benchmark catalog', trend_score, trending_at, created, created
  FROM shaped_rows
  RETURNING id, type, width, height, frames, original_format
)
INSERT INTO renditions (item_id, name, format, width, height, frames, bytes, path)
SELECT i.id, r.name, r.format, r.w, r.h, r.f,
  greatest(200, (r.w * r.h * r.f * CASE r.format WHEN 'gif' THEN 0.25 ELSE 0.1 END)::bigint),
  substr(x.h, 1, 2) || '/' || substr(x.h, 3, 2) || '/' || x.h || '.' || r.format
FROM new_items i
CROSS JOIN LATERAL (VALUES
  (i.width, i.height, 200, round(i.height * 200.0 / i.width)::int,
   100, round(i.height * 100.0 / i.width)::int, round(i.width * 200.0 / i.height)::int,
   CASE WHEN i.width >= i.height THEN 150 ELSE round(i.width * 150.0 / i.height)::int END,
   CASE WHEN i.width >= i.height THEN round(i.height * 150.0 / i.width)::int ELSE 150 END)
) s(ow, oh, fww, fwh, fsw, fsh, fhw, pw, ph)
CROSS JOIN LATERAL (VALUES
  ('original', 'gif', ow, oh, i.frames), ('original', 'webp', ow, oh, i.frames),
  ('original_still', 'gif', ow, oh, 1), ('original_still', 'webp', ow, oh, 1),
  ('fixed_width', 'gif', fww, fwh, i.frames), ('fixed_width', 'webp', fww, fwh, i.frames),
  ('fixed_width_still', 'gif', fww, fwh, 1), ('fixed_width_still', 'webp', fww, fwh, 1),
  ('fixed_width_small', 'gif', fsw, fsh, i.frames), ('fixed_width_small', 'webp', fsw, fsh, i.frames),
  ('fixed_height', 'gif', fhw, 200, i.frames), ('fixed_height', 'webp', fhw, 200, i.frames),
  ('fixed_height_still', 'gif', fhw, 200, 1), ('fixed_height_still', 'webp', fhw, 200, 1),
  ('downsized', 'gif', ow, oh, i.frames),
  ('preview_gif', 'gif', pw, ph, least(i.frames, 30)), ('preview_gif', 'webp', pw, ph, least(i.frames, 30))
) r(name, format, w, h, f)
CROSS JOIN LATERAL (SELECT md5(i.id || r.name || r.format) || md5(r.format || r.name || i.id) AS h) x`;

export interface CatalogGrowth {
  items: number;
  renditions: number;
  seconds: number;
  /** Seconds spent rebuilding indexes and rendition constraints after a large batch. */
  indexSeconds: number;
  /**
   * Seconds the related lists took to build, as the app's job builds them
   * (catalog/query/related-lists.ts); undefined on a schema without them (a baseline).
   */
  relatedListsSeconds?: number;
}

/**
 * The triggers that note each new item for the related lists (migration 0013): the load
 * rebuilds the lists once at the end instead, as the job would after an import.
 */
const relatedListsTriggers = ['items_related_lists_insert', 'items_related_lists_update_row'];

/**
 * Move the document version of an item whose renditions change (migration 0015): the items
 * loaded here are new and have no document, and the update of every item row it makes would
 * double the load's time.
 */
const documentVersionTriggers = ['renditions_document_version_insert'];

async function prepare(client: PoolClient, vocabulary: readonly VocabularyRow[]): Promise<number> {
  await client.query('CREATE SCHEMA IF NOT EXISTS bench');
  await client.query(
    'CREATE TABLE IF NOT EXISTS bench.vocab (n int PRIMARY KEY, label text NOT NULL, tags text[] NOT NULL, grp text NOT NULL)',
  );
  const { rows } = await client.query<{ count: string }>('SELECT count(*) FROM bench.vocab');
  if (Number(rows[0]!.count) === 0) {
    await client.query(
      `INSERT INTO bench.vocab (n, label, tags, grp)
       SELECT (x.n)::int, x.label, ARRAY(SELECT jsonb_array_elements_text(x.tags)), x.grp
       FROM jsonb_to_recordset($1::jsonb) AS x(n int, label text, tags jsonb, grp text)`,
      [
        JSON.stringify(
          vocabulary.map((row, n) => ({ n, label: row.label, tags: row.tags, grp: row.group })),
        ),
      ],
    );
    await client.query(
      `INSERT INTO creators (username, display_name, profile_url)
       SELECT 'bench-creator-' || k, 'Bench creator ' || k, 'https://example.com/creators/' || k
       FROM generate_series(1, ${creatorCount}) k ON CONFLICT (username) DO NOTHING`,
    );
  }
  const vocab = await client.query<{ count: string }>('SELECT count(*) FROM bench.vocab');
  return Number(vocab.rows[0]!.count);
}

/** How many synthetic items the database holds (they are numbered 1…count). */
export async function countCatalogItems(database: DatabaseHandle): Promise<number> {
  const { rows } = await database.pool.query<{ count: string }>('SELECT count(*) FROM items');
  return Number(rows[0]!.count);
}

/**
 * Grows the catalog to `target` items. A large batch is loaded with the items' secondary
 * indexes dropped and rebuilt after (the schema's own definitions, read back from
 * pg_indexes), which is many times faster than updating GIN indexes row by row.
 */
export async function growCatalog(
  database: DatabaseHandle,
  target: number,
  options: {
    onProgress?: (done: number, target: number) => void;
    /**
     * Rebuilds the related lists, forced (with the triggers off they do not know they are
     * behind): this checkout's job by default; a baseline's own code for a baseline's database,
     * whose lists may have another layout.
     */
    refreshRelatedLists?: () => Promise<{ ms: number } | undefined>;
  } = {},
): Promise<CatalogGrowth> {
  const started = performance.now();
  const client = await database.pool.connect();
  let indexSeconds = 0;
  try {
    const vocabulary = readVocabulary();
    const vocabSize = await prepare(client, vocabulary);
    const {
      rows: [creator],
    } = await client.query<{ id: number }>(
      "SELECT min(id) AS id FROM creators WHERE username LIKE 'bench-creator-%'",
    );
    const current = await countCatalogItems(database);
    const isLarge = target - current > 20_000;
    const {
      rows: [lists],
    } = await client.query<{ present: boolean }>(
      "SELECT to_regclass('related_lists_state') IS NOT NULL AS present",
    );
    const hasRelatedLists = lists!.present;
    if (hasRelatedLists) {
      for (const name of relatedListsTriggers) {
        await client.query(`ALTER TABLE items DISABLE TRIGGER ${name}`);
      }
    }
    // Not in a baseline's schema older than migration 0015.
    const { rows: documentTriggers } = await client.query<{ name: string }>(
      'SELECT tgname AS name FROM pg_trigger WHERE tgname = ANY($1::text[])',
      [documentVersionTriggers],
    );
    for (const { name } of documentTriggers) {
      await client.query(`ALTER TABLE renditions DISABLE TRIGGER ${name}`);
    }
    const dropped = isLarge
      ? (
          await client.query<{ indexname: string; indexdef: string }>(
            `SELECT indexname, indexdef FROM pg_indexes
             WHERE schemaname = 'public' AND tablename = 'items' AND indexdef NOT LIKE 'CREATE UNIQUE%'`,
          )
        ).rows
      : [];
    // Rendition rows outnumber items 17 to 1: their primary key and foreign key are checked
    // row by row; built once after the load they cost a tenth of that.
    const constraints = isLarge
      ? (
          await client.query<{ name: string; definition: string; type: string }>(
            `SELECT conname AS name, pg_get_constraintdef(oid) AS definition, contype AS type
             FROM pg_constraint WHERE conrelid = 'renditions'::regclass AND contype IN ('p', 'f')
             ORDER BY contype DESC`,
          )
        ).rows
      : [];
    if (isLarge) {
      // Gigabytes of WAL: with the default 1 GB between checkpoints, most of the load would be
      // spent writing full pages after each one. Back to the default once loaded.
      await client.query("ALTER SYSTEM SET max_wal_size = '16GB'");
      await client.query('SELECT pg_reload_conf()');
    }
    for (const index of dropped) await client.query(`DROP INDEX "${index.indexname}"`);
    for (const constraint of constraints) {
      await client.query(`ALTER TABLE renditions DROP CONSTRAINT "${constraint.name}"`);
    }
    try {
      const starts: number[] = [];
      for (let start = current + 1; start <= target; start += batchSize) starts.push(start);
      let done = current;
      const insertBatch = async (loader: PoolClient, start: number) => {
        const end = Math.min(target, start + batchSize - 1);
        for (let attempt = 1; ; attempt += 1) {
          try {
            await loader.query(insertBatchSql, [start, end, vocabSize, creator!.id]);
            break;
          } catch (error) {
            // Two batches adding the same new search terms can deadlock; PostgreSQL rolls one
            // back whole, so it is simply run again.
            if ((error as { code?: string }).code !== '40P01' || attempt >= 5) throw error;
          }
        }
        done += end - start + 1;
        options.onProgress?.(done, target);
      };
      // The first batch alone (it adds most of the vocabulary to the typo lexicon), then two
      // loaders, one batch each at a time: the machine has two cores.
      const first = starts.shift();
      if (first !== undefined) await insertBatch(client, first);
      const load = async () => {
        const loader = await database.pool.connect();
        try {
          for (let start = starts.shift(); start !== undefined; start = starts.shift()) {
            await insertBatch(loader, start);
          }
        } finally {
          loader.release();
        }
      };
      await Promise.all([load(), load()]);
    } finally {
      const indexStarted = performance.now();
      await client.query("SET maintenance_work_mem = '512MB'");
      for (const index of dropped) await client.query(index.indexdef);
      for (const constraint of constraints) {
        await client.query(
          `ALTER TABLE renditions ADD CONSTRAINT "${constraint.name}" ${constraint.definition}`,
        );
      }
      indexSeconds = (performance.now() - indexStarted) / 1000;
      if (isLarge) {
        await client.query('ALTER SYSTEM RESET max_wal_size');
        await client.query('SELECT pg_reload_conf()');
      }
      if (hasRelatedLists) {
        for (const name of relatedListsTriggers) {
          await client.query(`ALTER TABLE items ENABLE TRIGGER ${name}`);
        }
      }
      for (const { name } of documentTriggers) {
        await client.query(`ALTER TABLE renditions ENABLE TRIGGER ${name}`);
      }
    }
    await client.query('VACUUM (ANALYZE) items');
    await client.query('VACUUM (ANALYZE) renditions');
    await client.query('ANALYZE creators, search_terms, search_term_variants');
    let relatedListsSeconds: number | undefined;
    if (hasRelatedLists) {
      const refreshed = await (options.refreshRelatedLists
        ? options.refreshRelatedLists()
        : refreshRelatedLists(database, { isForced: true }));
      relatedListsSeconds = refreshed ? refreshed.ms / 1000 : undefined;
      await client.query('VACUUM (ANALYZE) related_keys');
    }
    const counts = await client.query<{ items: string; renditions: string }>(
      'SELECT (SELECT count(*) FROM items) AS items, (SELECT count(*) FROM renditions) AS renditions',
    );
    return {
      items: Number(counts.rows[0]!.items),
      renditions: Number(counts.rows[0]!.renditions),
      seconds: (performance.now() - started) / 1000,
      indexSeconds,
      relatedListsSeconds,
    };
  } finally {
    client.release();
  }
}
