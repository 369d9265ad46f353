import { createHmac } from 'node:crypto';
import type { AppConfig } from '../config/env.ts';
import type { Media } from './import/media-services.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { startCatalogMaintenance } from './maintenance.ts';
import type { CatalogMaintenance, MaintenanceLogger } from './maintenance.ts';
import { createItemDocumentWriter } from './query/item-documents.ts';
import type { ItemDocumentWriter } from './query/item-documents.ts';
import { createQueryCaches } from './query/query-caches.ts';
import type { QueryCaches } from './query/query-caches.ts';
import { createTextRenderer } from './text/text-renderer.ts';
import type { TextRenderer } from './text/text-renderer.ts';
import { warmCatalogConnections } from './warm-connections.ts';
import { readSynonymMap } from './query/synonyms.ts';

/**
 * Everything the catalog keeps while an app runs (docs/architecture.md, "Services per app"):
 * kept answers and the versions they follow, the drawing of animated text, the housekeeping
 * timer. Made once per app, closed with it; nothing of it lives at module level.
 */
export interface CatalogServices extends QueryCaches {
  /** Items' JSON written back to the database after cold pages (item-documents.ts). */
  itemDocuments: ItemDocumentWriter;
  textRenderer: TextRenderer;
  maintenance: CatalogMaintenance;
  /** Keys the digests that name people in counts and quotas (catalog/requester.ts). */
  requesterSecret: string;
  close: () => Promise<void>;
}

export interface CatalogServicesOptions {
  config: AppConfig;
  database: DatabaseHandle;
  /** Where the files of purged renderings are removed from (media-services.ts). */
  media: Pick<Media, 'store'>;
  /** The app's secret; the digests' key is derived from it, never the secret itself. */
  secret: string;
  log: MaintenanceLogger;
  /** The clock of the caches (tests). */
  now?: () => number;
  /** Counts the kept answers' hits and misses (services/metrics-service.ts). */
  countLookupsOf?: (cache: string) => (isHit: boolean) => void;
}

export function createCatalogServices(options: CatalogServicesOptions): CatalogServices {
  const { config, database } = options;
  const itemDocuments = createItemDocumentWriter({ database, config, log: options.log });
  const caches = createQueryCaches(database, {
    trendingMaxAgeMs: config.trendingMaxAgeMs,
    now: options.now,
    countLookupsOf: options.countLookupsOf,
  });
  // One drawing per import worker plus one drawing: a burst of new phrases keeps the cores
  // busy without starving everything else.
  const textRenderer = createTextRenderer({ concurrency: config.importLimits.workers + 1 });
  // Read at start, not by the first search: 1 MB of JSON (docs/catalog.md, "Synonyms and emoji").
  readSynonymMap();
  const maintenance = startCatalogMaintenance(
    { config, database, media: options.media },
    { textRenderKeepDays: config.textRendering.keepDays, log: options.log },
  );
  const { close: closeCaches, ...queryCaches } = caches;
  const services: CatalogServices = {
    ...queryCaches,
    itemDocuments,
    textRenderer,
    maintenance,
    requesterSecret: createHmac('sha256', options.secret)
      .update('sticky requester digests')
      .digest('hex'),
    close: async () => {
      await warmingConnections;
      await maintenance.close();
      await itemDocuments.close();
      await textRenderer.close();
      closeCaches();
    },
  };
  // The connections the pool keeps open however long idle (ConnectOptions.keptConnections).
  const keptConnections = database.pool.options.min ?? 0;
  const warmingConnections =
    keptConnections > 0 ? warmConnections(services, options, keptConnections) : undefined;
  return services;
}

/** The kept connections, warmed in the background as the app starts (warm-connections.ts). */
async function warmConnections(
  services: CatalogServices,
  { config, database, log }: CatalogServicesOptions,
  count: number,
): Promise<void> {
  const started = performance.now();
  try {
    await warmCatalogConnections({ config, database, services }, count);
    log.info(
      { connections: count, ms: Math.round(performance.now() - started) },
      'warmed the database connections',
    );
  } catch (error) {
    log.warn({ err: error }, 'could not warm the database connections');
  }
}
