import fs from 'node:fs';
import pino from 'pino';
import type { Logger } from 'pino';
import { cleanupIncompleteImports } from '../catalog/import/media-files.ts';
import { closeMediaProcessors } from '../catalog/import/media-processor.ts';
import { ConfigError, loadConfig } from '../config/env.ts';
import type { AppConfig } from '../config/env.ts';
import { connectDatabase } from '../db/client.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { acquireDataDirLock, DataDirBusyError, startEmbeddedPostgres } from '../db/embedded.ts';
import type { EmbeddedDatabase } from '../db/embedded.ts';
import { migrateDatabase } from '../db/migrate.ts';
import { CliError } from './cli-command.ts';

export interface OpenCatalog {
  config: AppConfig;
  database: DatabaseHandle;
  log: Logger;
  close: () => Promise<void>;
}

/**
 * The server's configuration and database for a CLI command: DATABASE_URL when set, else the
 * embedded PostgreSQL in DATA_DIR (which a running server holds: then we say so and stop).
 * Migrations run, and files left by an import that crashed are cleaned up.
 */
export async function openCatalog(env: NodeJS.ProcessEnv = process.env): Promise<OpenCatalog> {
  let config: AppConfig;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(error.message, 78);
    throw error;
  }
  // Only problems reach the terminal: the progress bar owns it.
  const log = pino({ level: 'warn', base: { service: 'sticky-cli' } }, pino.destination(2));
  fs.mkdirSync(config.mediaDir, { recursive: true });

  let releaseLock: (() => void) | undefined;
  let embedded: EmbeddedDatabase | undefined;
  let url = config.databaseUrl;
  if (!url) {
    try {
      releaseLock = acquireDataDirLock(config.dataDir);
    } catch (error) {
      if (error instanceof DataDirBusyError) {
        throw new CliError(
          `A Sticky server (pid ${error.ownerPid}) is running with DATA_DIR ${config.dataDir} and holds its database.\n` +
            'Stop the server and run this again, or run both against an external PostgreSQL by setting DATABASE_URL.',
          75,
        );
      }
      throw error;
    }
    try {
      embedded = await startEmbeddedPostgres(config.dataDir, log);
    } catch (error) {
      releaseLock();
      throw error;
    }
    url = embedded.url;
  }
  const database = connectDatabase(url, { max: 10 });
  const close = async () => {
    await closeMediaProcessors();
    await database.close().catch(() => {});
    await embedded?.stop().catch(() => {});
    releaseLock?.();
  };
  try {
    await migrateDatabase(database);
    await cleanupIncompleteImports({ config, database });
  } catch (error) {
    await close();
    throw error;
  }
  return { config, database, log, close };
}
