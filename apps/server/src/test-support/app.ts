import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../app.ts';
import type { App } from '../app.ts';
import { loadConfig } from '../config/env.ts';
import type { AppConfig } from '../config/env.ts';
import { createTestDatabase } from './database.ts';
import type { TestDatabase } from './database.ts';

export interface TestApp {
  app: App;
  config: AppConfig;
  database: TestDatabase;
  dataDir: string;
  close: () => Promise<void>;
}

/**
 * The real app on a fresh database, for `app.inject()` or a real listener. `env` is read
 * exactly like process.env, so tests exercise the same config validation as production.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  options: { webDistDir?: string } = {},
): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-test-data-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    SESSION_SECRET: 'test-session-secret-that-is-long-enough-0123456789',
    SEED_STARTER_CATALOG: 'false',
    LOG_LEVEL: 'silent',
    ...env,
  });
  fs.mkdirSync(config.mediaDir, { recursive: true });
  const database = await createTestDatabase();
  const app = await buildApp(
    { config, database, sessionSecret: config.sessionSecret! },
    { webDistDir: options.webDistDir },
  );
  return {
    app,
    config,
    database,
    dataDir,
    close: async () => {
      await app.close();
      await database.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
