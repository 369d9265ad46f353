import pino from 'pino';
import type { Logger } from 'pino';
import { createMediaServices } from '../catalog/import/media-services.ts';
import type { MediaServices } from '../catalog/import/media-services.ts';
import { ConfigError, loadConfig } from '../config/env.ts';
import type { AppConfig } from '../config/env.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { DataDirBusyError, PostgresSetupError } from '../db/embedded.ts';
import { openDatabase } from '../services/open-database.ts';
import { CliError } from './cli-command.ts';

export interface OpenCatalog {
  config: AppConfig;
  database: DatabaseHandle;
  /** The command's media store and decoders, closed with it. */
  media: MediaServices;
  log: Logger;
  close: () => Promise<void>;
}

/** The server's configuration for a CLI command: a bad one exits 78, as the server does. */
export function readCliConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  try {
    return loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(error.message, 78);
    throw error;
  }
}

/**
 * The server's configuration and database for a CLI command, opened as the server opens it
 * (services/open-database.ts); a running server holding DATA_DIR is named, with what to do.
 * `exclusiveFor` names a command that must never run beside a server (restore: the server would
 * serve and write while the rows are replaced); it gets a small pool and never joins one.
 */
export async function openCatalog(
  options: { config?: AppConfig; exclusiveFor?: string } = {},
): Promise<OpenCatalog> {
  const config = options.config ?? readCliConfig();
  // Only problems reach the terminal: the progress bar owns it.
  const log = pino({ level: 'warn', base: { service: 'sticky-cli' } }, pino.destination(2));
  const media = createMediaServices(config);
  let opened;
  try {
    // No statement_timeout: a bulk import's statements may take as long as they need.
    // Beside a running server, the import works on that server's database (docs/uploads.md).
    opened = await openDatabase(config, log, {
      store: media.store,
      poolSize: options.exclusiveFor ? 2 : 10,
      canJoinRunningServer: !options.exclusiveFor,
    });
  } catch (error) {
    await media.close();
    if (error instanceof DataDirBusyError) {
      throw new CliError(
        options.exclusiveFor
          ? `A Sticky server (pid ${error.ownerPid}) is running with DATA_DIR ${config.dataDir}: stop it, then ${options.exclusiveFor}.`
          : `A Sticky server (pid ${error.ownerPid}) is running with DATA_DIR ${config.dataDir} and holds its database, but its PostgreSQL could not be reached.\n` +
              'Stop the server and run this again, or run both against an external PostgreSQL by setting DATABASE_URL.',
        75,
      );
    }
    if (error instanceof PostgresSetupError) throw new CliError(error.message, 1);
    throw error;
  }
  const { database } = opened;
  const close = async () => {
    await media.close();
    await opened.close();
  };
  return { config, database, media, log, close };
}
