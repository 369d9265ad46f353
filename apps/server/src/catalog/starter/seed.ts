import { eq, sql } from 'drizzle-orm';
import pLimit from 'p-limit';
import { starterCatalogSeeds } from '../../db/schema.ts';
import { encodeCategoryName } from '../category-names.ts';
import { importMedia } from '../import/import-media.ts';
import type { ImportDeps } from '../import/import-media.ts';
import { trendScoreFor } from '../query/trending.ts';
import { starterCategories } from './categories.ts';
import { buildStarterPlan, STARTER_CATALOG_VERSION } from './plan.ts';
import type { StarterItem, StarterItemType } from './plan.ts';
import { studioCreator } from './studio.ts';

export interface SeedLogger {
  info: (object: object, message?: string) => void;
  warn: (object: object, message?: string) => void;
}

export interface SeedOptions {
  log?: SeedLogger;
  signal?: AbortSignal;
  /** Seed even when this version is recorded as done (the items already there stay). */
  isForced?: boolean;
  /** The items to seed as this version; default the whole plan (tests pass a few). */
  plan?: StarterItem[];
  onProgress?: (done: number, total: number) => void;
}

export interface SeedSummary {
  status: 'seeded' | 'already-seeded' | 'busy' | 'stopped';
  version: number;
  imported: number;
  duplicates: number;
  failed: Array<{ key: string; reason: string }>;
  byType: Record<StarterItemType, number>;
  ms: number;
}

/** Any two-int key works; this one is ours alone (pg advisory locks are per database). */
export const SEED_LOCK_KEY = 0x5eed;

const silent: SeedLogger = { info: () => {}, warn: () => {} };

export async function isStarterCatalogSeeded(
  deps: ImportDeps,
  version = STARTER_CATALOG_VERSION,
): Promise<boolean> {
  const rows = await deps.database.db
    .select({ version: starterCatalogSeeds.version })
    .from(starterCatalogSeeds)
    .where(eq(starterCatalogSeeds.version, version))
    .limit(1);
  return rows.length > 0;
}

/**
 * Creates the starter catalog: renders every item of the plan and imports it (all renditions,
 * categories, the Sticky Studio creator). Idempotent: a version recorded as done is skipped,
 * and an item whose bytes are already there is a duplicate, kept as it is. Two servers on one
 * database do not seed at once (an advisory lock; the second answers `busy`).
 */
export async function seedStarterCatalog(
  deps: ImportDeps,
  options: SeedOptions = {},
): Promise<SeedSummary> {
  const startedAt = Date.now();
  const log = options.log ?? silent;
  const summary: SeedSummary = {
    status: 'seeded',
    version: STARTER_CATALOG_VERSION,
    imported: 0,
    duplicates: 0,
    failed: [],
    byType: { sticker: 0, gif: 0, text: 0 },
    ms: 0,
  };
  const finish = (status: SeedSummary['status']) => ({
    ...summary,
    status,
    ms: Date.now() - startedAt,
  });

  const client = await deps.database.pool.connect();
  try {
    const locked = await client.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_lock($1) AS locked',
      [SEED_LOCK_KEY],
    );
    if (!locked.rows[0]?.locked) return finish('busy');
    try {
      if (!options.isForced && (await isStarterCatalogSeeded(deps))) {
        return finish('already-seeded');
      }
      const plan = [...(options.plan ?? buildStarterPlan())]
        // Most popular first: while seeding goes on, the top of trending is already there.
        .sort((a, b) => b.popularity - a.popularity || a.key.localeCompare(b.key));
      const creator = studioCreator();
      const seededAt = new Date();
      // One item rendering here while the import workers make the renditions of others.
      const limit = pLimit(deps.config.importLimits.workers + 1);
      let done = 0;
      log.info(
        { items: plan.length, version: STARTER_CATALOG_VERSION },
        'seeding the starter catalog',
      );
      const seedOne = async (item: StarterItem) => {
        if (options.signal?.aborted) return;
        try {
          const bytes = await item.render('gif');
          const outcome = await importMedia(deps, {
            bytes,
            fileName: `${item.key}.gif`,
            metadata: {
              title: item.title,
              tags: item.tags,
              type: item.type,
              rating: 'g',
              altText: item.altText,
              caption: item.caption,
              sourceUrl: item.sourceUrl,
              license: item.license,
              attribution: item.attribution,
              categories: item.categories,
              creator,
              trendScore: trendScoreFor(item.popularity, seededAt),
            },
          });
          if (outcome.status === 'imported') {
            summary.imported += 1;
            summary.byType[item.type] += 1;
          } else if (outcome.status === 'duplicate') {
            summary.duplicates += 1;
            summary.byType[item.type] += 1;
          } else {
            summary.failed.push({ key: item.key, reason: outcome.reason });
          }
        } catch (error) {
          summary.failed.push({ key: item.key, reason: (error as Error).message });
        }
        done += 1;
        options.onProgress?.(done, plan.length);
        if (done % 50 === 0) log.info({ done, total: plan.length }, 'starter catalog progress');
      };
      await Promise.all(plan.map((item) => limit(() => seedOne(item))));
      if (options.signal?.aborted) return finish('stopped');
      for (const failure of summary.failed) {
        log.warn(failure, 'a starter catalog item could not be made');
      }
      await orderStarterCategories(deps);
      // A seed with failures is not recorded, so the next start tries again.
      if (summary.failed.length === 0) {
        const record = {
          imported: summary.imported,
          duplicates: summary.duplicates,
          byType: summary.byType,
        };
        await deps.database.db
          .insert(starterCatalogSeeds)
          .values({ version: STARTER_CATALOG_VERSION, summary: record })
          .onConflictDoUpdate({
            target: starterCatalogSeeds.version,
            set: { summary: record, completedAt: sql`now()` },
          });
      }
      return finish('seeded');
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [SEED_LOCK_KEY]).catch(() => {});
    }
  } finally {
    client.release();
  }
}

/** Lists the starter categories in the order they were planned (Reactions first), not A–Z. */
async function orderStarterCategories(deps: ImportDeps): Promise<void> {
  const { db } = deps.database;
  for (const [index, category] of starterCategories.entries()) {
    const parent = encodeCategoryName(category.name);
    await db.execute(
      sql`UPDATE categories SET position = ${index} WHERE parent_id IS NULL AND name_encoded = ${parent}`,
    );
    for (const [subIndex, sub] of category.subcategories.entries()) {
      await db.execute(sql`
        UPDATE categories SET position = ${subIndex}
        WHERE name_encoded = ${encodeCategoryName(sub)}
          AND parent_id = (SELECT id FROM categories WHERE parent_id IS NULL AND name_encoded = ${parent})`);
    }
  }
}

export interface StarterSeedHandle {
  /** Settles when seeding ends (or was not needed); never rejects. */
  done: Promise<SeedSummary | undefined>;
  /** Stops after the items under way; resolves once nothing is left running. */
  stop: () => Promise<void>;
}

/**
 * Seeds in the background after the server is listening: the site is usable at once and the
 * catalog fills in, most popular first. Failures are logged, never thrown.
 */
export function startStarterCatalogSeed(deps: ImportDeps, log: SeedLogger): StarterSeedHandle {
  const controller = new AbortController();
  const done = seedStarterCatalog(deps, { log, signal: controller.signal })
    .then((summary) => {
      if (summary.status === 'seeded') {
        log.info(
          {
            ms: summary.ms,
            imported: summary.imported,
            duplicates: summary.duplicates,
            byType: summary.byType,
          },
          'starter catalog ready',
        );
      }
      return summary;
    })
    .catch((error: unknown) => {
      log.warn({ err: error }, 'could not seed the starter catalog');
      return undefined;
    });
  return {
    done,
    stop: async () => {
      controller.abort();
      await done;
    },
  };
}
