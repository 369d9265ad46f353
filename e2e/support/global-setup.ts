import fs from 'node:fs';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { startStickyServer } from './server.ts';

/** The starter catalog is made behind the running server; the journeys need all of it. */
async function waitForStarterCatalog(url: string, timeoutMs = 600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const readiness = (await (await fetch(`${url}/readyz`)).json()) as { catalog?: string };
    if (readiness.catalog === 'ready' || readiness.catalog === 'off') return;
    if (readiness.catalog === 'failed') throw new Error('the starter catalog could not be made');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  throw new Error(`the starter catalog was not ready within ${timeoutMs / 1000} s`);
}

/**
 * One real server (local catalog, local sign-in) shared by the browser tests; its URL reaches
 * the tests through STICKY_E2E_URL. Specs that need another configuration start their own.
 */
export default async function globalSetup(_config: FullConfig) {
  const indexHtml = path.resolve('apps/web/dist/index.html');
  if (!fs.existsSync(indexHtml)) {
    throw new Error('apps/web/dist is missing: run "npm run build" before the browser tests');
  }
  const server = await startStickyServer();
  await waitForStarterCatalog(server.url);
  process.env.STICKY_E2E_URL = server.url;
  process.env.STICKY_E2E_DATA_DIR = server.dataDir;
  return async () => {
    await server.stop();
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  };
}
