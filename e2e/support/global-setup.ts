import fs from 'node:fs';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { e2eAdminEmail, e2eApiKey } from './api-key.ts';
import { startStickyServer } from './server.ts';

/**
 * One real server (local catalog, local sign-in) shared by the browser tests; its URL reaches
 * the tests through STICKY_E2E_URL. Specs that need another configuration start their own.
 */
export default async function globalSetup(_config: FullConfig) {
  const indexHtml = path.resolve('apps/web/dist/index.html');
  if (!fs.existsSync(indexHtml)) {
    throw new Error('apps/web/dist is missing: run "npm run build" before the browser tests');
  }
  // The starter catalog fills in behind it; the specs that browse it wait for it themselves.
  const server = await startStickyServer({
    STICKY_API_KEYS: e2eApiKey,
    ADMIN_EMAILS: e2eAdminEmail,
  });
  process.env.STICKY_E2E_URL = server.url;
  process.env.STICKY_E2E_DATA_DIR = server.dataDir;
  return () => server.stop();
}
