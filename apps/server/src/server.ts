import { logSerializers } from './lib/log-redaction.ts';
import pino from 'pino';
import { build as buildPrettyStream } from 'pino-pretty';
import type { Logger } from 'pino';
import { buildApp } from './app.ts';
import type { App } from './app.ts';
import type { AppConfig } from './config/env.ts';
import type { DatabaseHandle } from './db/client.ts';
import type { EmbeddedDatabase } from './db/embedded.ts';
import { resolveSessionSecret } from './lib/secrets.ts';
import { startRenditionWorker } from './catalog/import/later-renditions.ts';
import { startCaptionWorker } from './catalog/captions/caption-job.ts';
import type { CaptionWorker } from './catalog/captions/caption-job.ts';
import { createMediaServices } from './catalog/import/media-services.ts';
import { startRelatedListsWorker } from './catalog/import/related-lists-job.ts';
import type { RelatedListsWorker } from './catalog/import/related-lists-job.ts';
import { createJobQueue } from './jobs/job-queue.ts';
import { startStarterCatalogSeed } from './catalog/starter/seed.ts';
import type { SeedSummary } from './catalog/starter/seed.ts';
import type { CatalogState } from './services/app-services.ts';
import { openDatabase } from './services/open-database.ts';
import { startUploadWorker } from './uploads/uploads-service.ts';

export interface RunningServer {
  app: App;
  url: string;
  database: DatabaseHandle;
  embedded: EmbeddedDatabase | undefined;
  /** Settles when the starter catalog is there (seeded now, earlier, or not wanted). */
  starterCatalog: Promise<SeedSummary | undefined>;
  stop: () => Promise<void>;
}

/** Readable lines for a person at a terminal, JSON for whatever collects the logs. */
export function resolveLogFormat(config: AppConfig, isTerminal = process.stdout.isTTY === true) {
  return config.logFormat ?? (isTerminal ? 'pretty' : 'json');
}

/**
 * The server's logger: to stdout, or to `destination` (tests read what it writes). On a
 * terminal through pino-pretty in this process (a transport's worker thread would outlive a
 * fatal exit's last line).
 */
export function createLogger(config: AppConfig, destination?: pino.DestinationStream): Logger {
  const options = {
    level: config.logLevel,
    base: { service: 'sticky' },
    serializers: logSerializers,
  };
  if (destination) return pino(options, destination);
  if (resolveLogFormat(config) === 'json') return pino(options);
  return pino(
    options,
    buildPrettyStream({
      ignore: 'pid,hostname,service,reqId',
      translateTime: 'SYS:HH:MM:ss',
      sync: true,
    }),
  );
}

/**
 * Everything `npm start` does after reading the config: the database (embedded unless
 * DATABASE_URL is set), migrations, the starter catalog, then the HTTP server.
 */
export async function startServer(config: AppConfig, log: Logger): Promise<RunningServer> {
  const startedAt = Date.now();
  // One media store and decoder pool for the routes and the job workers: uploads, imports and
  // later renditions wait in one queue, by priority (docs/uploads.md, "Processing").
  const media = createMediaServices(config);
  const opened = await openDatabase(config, log, {
    store: media.store,
    poolSize: 20,
    // A cold search or related page holds one or two at a time: four answer a few at once
    // without a new connection; the rest of the 20 open when needed (docs/scaling.md).
    keptConnections: 4,
    statementTimeoutMs: config.statementTimeoutMs,
    canReadFromReplica: true,
    // main.ts stops it on SIGINT, last (db/embedded.ts).
    isEmbeddedInOwnProcessGroup: true,
  }).catch(async (error: unknown) => {
    await media.close();
    throw error;
  });
  const { database, embedded } = opened;
  const stopDatabase = opened.close;
  const catalog: CatalogState = { starter: config.seedStarterCatalog ? 'seeding' : 'off' };
  // The durable job queue (docs/architecture.md, "Jobs"): renditions made after an item is
  // visible, shared by every server on this database, surviving restarts.
  const jobs = createJobQueue({ database, log });
  let built: App | undefined;
  let relatedLists: RelatedListsWorker | undefined;
  let captions: CaptionWorker | undefined;
  try {
    await jobs.start();
    relatedLists = await startRelatedListsWorker({ database, jobs, log });
    built = await buildApp(
      {
        config,
        database,
        media,
        catalog,
        sessionSecret: resolveSessionSecret(config),
        jobs,
      },
      {
        logger: log,
        // On a terminal, one line per request would push "Sticky is running at …" off screen.
        requestLogLevel: resolveLogFormat(config) === 'pretty' ? 'debug' : 'info',
      },
    );
    // After the app: what the workers commit, they tell its caches at once (read your writes,
    // docs/catalog.md, "Caches and versions").
    const workerDeps = { config, database, media, jobs, log, services: built.deps.services };
    await startRenditionWorker(workerDeps);
    await startUploadWorker(workerDeps);
    // Also queues what an upgrade left unread, a batch at a time (docs/catalog.md, "Captions").
    captions = await startCaptionWorker(workerDeps);
    await built.listen({ port: config.port, host: config.host });
  } catch (error) {
    relatedLists?.close();
    await captions?.close().catch(() => {});
    await built?.close().catch(() => {});
    await jobs.stop().catch(() => {});
    await media.close();
    await stopDatabase();
    throw error;
  }
  const app = built;

  let isStopping = false;
  if (embedded) {
    const db = embedded;
    // The embedded database is ours to keep alive: if it dies, bring it back without a restart.
    // The first tries can fail: backends of the killed server hold its shared memory until
    // they notice, and PostgreSQL refuses to start beside them. So try until it comes back.
    const revive = async () => {
      // Stopped with us (a service manager signals every process of the service): expected.
      if (isStopping) return;
      log.error('embedded PostgreSQL stopped unexpectedly; restarting it');
      const startedAt = Date.now();
      for (let attempt = 1; !isStopping; attempt += 1) {
        try {
          await db.restart();
          log.info({ attempt, ms: Date.now() - startedAt }, 'embedded PostgreSQL is back');
          return;
        } catch (error) {
          log.warn({ err: error, attempt }, 'could not restart PostgreSQL yet; trying again');
          await new Promise((resolve) => setTimeout(resolve, Math.min(2_000, 200 * attempt)));
        }
      }
    };
    db.onUnexpectedExit(() => void revive());
  }

  log.info({ ms: Date.now() - startedAt }, 'server started');
  // The starter catalog fills in behind the running server, most popular items first.
  const starter = config.seedStarterCatalog
    ? startStarterCatalogSeed({ config, database, media, jobs }, log)
    : undefined;
  void starter?.done.then((summary) => {
    catalog.starter = summary && summary.status !== 'stopped' ? 'ready' : 'failed';
  });
  return {
    app,
    url: config.publicUrl,
    database,
    embedded,
    starterCatalog: starter?.done ?? Promise.resolve(undefined),
    stop: async () => {
      isStopping = true;
      await starter?.stop();
      relatedLists?.close();
      // Running jobs get a moment to finish; one cut short is retried by the next start.
      await captions?.close().catch(() => {});
      await jobs.stop({ timeoutMs: 15_000 });
      await app.close();
      await media.close();
      await stopDatabase();
    },
  };
}
