import 'dotenv/config';
import { ConfigError, loadConfig } from './config/env.ts';
import { DataDirBusyError, PostgresSetupError } from './db/embedded.ts';
import { StartupError } from './lib/startup-error.ts';
import { createLogger, startServer } from './server.ts';

const storageProblems: Record<string, string> = {
  EROFS: 'it is on a read-only file system',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOSPC: 'the disk is full',
};

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78);
    }
    throw error;
  }
  const log = createLogger(config);
  try {
    const server = await startServer(config, log);
    console.log(`\n  Sticky is running at ${server.url}\n`);
    let isStopping = false;
    const shutdown = (signal: string) => {
      if (isStopping) return;
      isStopping = true;
      log.info({ signal }, 'shutting down');
      server
        .stop()
        .then(() => process.exit(0))
        .catch((error: unknown) => {
          log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        });
    };
    process.on('SIGINT', () => shutdown('SIGINT'));
    process.on('SIGTERM', () => shutdown('SIGTERM'));
    // The terminal it runs in was closed: stop as cleanly, or the database it started is left.
    process.on('SIGHUP', () => shutdown('SIGHUP'));
  } catch (error) {
    if (error instanceof DataDirBusyError) {
      console.error(error.message);
      process.exit(75);
    }
    if (error instanceof PostgresSetupError) {
      console.error(error.message);
      process.exit(1);
    }
    // A bucket or read replica that cannot be used: its message names the setting and why.
    if (error instanceof StartupError) {
      console.error(error.message);
      process.exit(error.exitCode);
    }
    const reason = storageProblems[(error as NodeJS.ErrnoException).code ?? ''];
    if (reason) {
      console.error(
        `Sticky cannot write to DATA_DIR ${config.dataDir}: ${reason}. Nothing was changed. (${(error as Error).message})`,
      );
      process.exit(73);
    }
    log.fatal({ err: error }, 'could not start');
    process.exit(1);
  }
}

await main();
