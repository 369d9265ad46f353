import fs from 'node:fs';
import type { Logger } from 'pino';
import { cleanupIncompleteImports } from '../catalog/import/media-files.ts';
import type { CleanupSummary } from '../catalog/import/media-files.ts';
import type { AppConfig } from '../config/env.ts';
import { connectDatabase } from '../db/client.ts';
import type { DatabaseHandle } from '../db/client.ts';
import {
  acquireDataDirLock,
  DataDirBusyError,
  readRunningClusterUrl,
  startEmbeddedPostgres,
} from '../db/embedded.ts';
import type { EmbeddedDatabase } from '../db/embedded.ts';
import { migrateDatabase } from '../db/migrate.ts';
import type { MediaStore } from '../storage/media-store.ts';

export interface OpenDatabase {
  database: DatabaseHandle;
  /** The embedded PostgreSQL when DATABASE_URL is not set. */
  embedded: EmbeddedDatabase | undefined;
  /** What start-up cleanup removed (files of an import that died half-way). */
  cleanup: CleanupSummary;
  /** Closes the pool, stops the embedded PostgreSQL and lets go of DATA_DIR. */
  close: () => Promise<void>;
}

/**
 * The database of the server and of every CLI command, opened one way (docs/architecture.md,
 * "Runtime"): DATABASE_URL when set, else the embedded PostgreSQL in DATA_DIR, whose lock is
 * taken first (a second process gets DataDirBusyError); DATABASE_READ_URL's replica checked when
 * asked for; then migrations; then the files left
 * by an import that crashed are removed before anything is served or imported. Whatever fails
 * half-way is undone.
 */
export async function openDatabase(
  config: AppConfig,
  log: Logger,
  options: {
    /** The caller's media store: checked, and cleaned of what a dead import left. */
    store: MediaStore;
    poolSize: number;
    /** Of them, kept open however long idle and warmed at start (db/client.ts). */
    keptConnections?: number;
    statementTimeoutMs?: number;
    /**
     * When a server holds DATA_DIR's embedded PostgreSQL, use it beside that server (the import
     * CLI) instead of failing with DataDirBusyError.
     */
    canJoinRunningServer?: boolean;
    /**
     * Send catalog reads to DATABASE_READ_URL's replica when it is set (the server; a CLI
     * command reads and writes the primary only).
     */
    canReadFromReplica?: boolean;
    /**
     * Keep an embedded PostgreSQL out of the terminal's Ctrl-C: for an owner that stops it
     * itself on SIGINT (the server; db/embedded.ts).
     */
    isEmbeddedInOwnProcessGroup?: boolean;
  },
): Promise<OpenDatabase> {
  fs.mkdirSync(config.mediaDir, { recursive: true });
  let releaseLock: (() => void) | undefined;
  let embedded: EmbeddedDatabase | undefined;
  let url = config.databaseUrl;
  if (!url) {
    try {
      releaseLock = acquireDataDirLock(config.dataDir);
    } catch (error) {
      const running =
        error instanceof DataDirBusyError && options.canJoinRunningServer
          ? readRunningClusterUrl(config.dataDir)
          : undefined;
      if (!running) throw error;
      url = running;
      log.info({ dataDir: config.dataDir }, 'using the running server’s embedded PostgreSQL');
    }
  }
  if (!url) {
    try {
      embedded = await startEmbeddedPostgres(config.dataDir, log, {
        rootHome: config.postgresRootDir,
        isOwnProcessGroup: options.isEmbeddedInOwnProcessGroup ?? false,
      });
    } catch (error) {
      releaseLock?.();
      throw error;
    }
    url = embedded.url;
  }
  const readUrl = options.canReadFromReplica ? config.databaseReadUrl : undefined;
  const database = connectDatabase(url, {
    max: options.poolSize,
    keptConnections: options.keptConnections,
    statementTimeoutMs: options.statementTimeoutMs,
    ...(readUrl ? { readUrl, log } : {}),
  });
  const close = async () => {
    await database.close().catch(() => {});
    await embedded?.stop().catch(() => {});
    releaseLock?.();
  };
  try {
    // So does a read replica that does not answer or replicates another server (read-replica.ts).
    await database.replica?.check();
    // A bucket that cannot be used stops the start with one line saying why (media-store.ts).
    const { store } = options;
    await store.check();
    await migrateDatabase(database);
    const cleanup = await cleanupIncompleteImports({ config, database, store });
    if (cleanup.stagingDirsRemoved + cleanup.orphansRemoved > 0) {
      log.info(cleanup, 'removed files left by an incomplete import');
    }
    return { database, embedded, cleanup, close };
  } catch (error) {
    await close();
    throw error;
  }
}
