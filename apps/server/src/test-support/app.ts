import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../app.ts';
import type { App, BuildAppOptions } from '../app.ts';
import { startRenditionWorker } from '../catalog/import/later-renditions.ts';
import { createMediaServices } from '../catalog/import/media-services.ts';
import { startCaptionWorker } from '../catalog/captions/caption-job.ts';
import type { CaptionWorker } from '../catalog/captions/caption-job.ts';
import type { MediaServices } from '../catalog/import/media-services.ts';
import { startRelatedListsWorker } from '../catalog/import/related-lists-job.ts';
import { loadConfig } from '../config/env.ts';
import { createJobQueue } from '../jobs/job-queue.ts';
import { startUploadWorker } from '../uploads/uploads-service.ts';
import type { AppConfig } from '../config/env.ts';
import type { RouteEntry } from '../plugins/route-inventory.ts';
import { createTestDatabase } from './database.ts';
import type { TestDatabase } from './database.ts';

export interface TestApp {
  app: App;
  config: AppConfig;
  database: TestDatabase;
  /** The app's media store and decoders, shared with its job workers. */
  media: MediaServices;
  dataDir: string;
  close: () => Promise<void>;
}

export type TestAppOptions = Pick<
  BuildAppOptions,
  'webDistDir' | 'serverFactory' | 'rateLimitWindowMs' | 'logger' | 'requestLogLevel'
> & {
  /**
   * Run the job queue as `npm start` does (uploads and later renditions processed in this
   * process): for tests of what happens after a request was accepted.
   */
  hasJobs?: boolean;
  /**
   * Where Google is, for an app with GOOGLE_CLIENT_* set: a test issuer (startTestIssuer) plays
   * Google, and the app treats it as it treats Google (auth/sign-in.ts, auth/allow-list.ts).
   */
  googleIssuer?: string;
  /** With `hasJobs`: read captions too (catalog/captions), as `npm start` does. */
  hasCaptions?: boolean;
};

/**
 * The real app on a fresh database, for `app.inject()` or a real listener. `env` is read
 * exactly like process.env, so tests exercise the same config validation as production.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  options: TestAppOptions = {},
): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-test-data-'));
  // Test apps answer on made-up public URLs; they offer the local sign-in there unless the
  // test names a provider or an allow-list (which never goes with it).
  const hasProviderOrAllowList = [
    'GOOGLE_CLIENT_ID',
    'OIDC_ISSUER',
    'ALLOWED_EMAILS',
    'ALLOWED_EMAIL_DOMAINS',
  ].some((name) => env[name]);
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    SESSION_SECRET: 'test-session-secret-that-is-long-enough-0123456789',
    SEED_STARTER_CATALOG: 'false',
    LOG_LEVEL: 'silent',
    // inject() names `localhost`, and listening tests reach 127.0.0.1, whatever PUBLIC_URL is;
    // the host check's own tests set ALLOWED_HOSTS.
    ALLOWED_HOSTS: 'localhost,127.0.0.1',
    ...(hasProviderOrAllowList ? {} : { LOCAL_SIGN_IN: '1' }),
    ...env,
  });
  const { hasJobs, googleIssuer, hasCaptions, ...appOptions } = options;
  if (googleIssuer) {
    if (config.signIn.kind !== 'google') throw new Error('googleIssuer needs GOOGLE_CLIENT_*');
    config.signIn = { ...config.signIn, issuer: googleIssuer };
  }
  fs.mkdirSync(config.mediaDir, { recursive: true });
  const database = await createTestDatabase();
  const media = createMediaServices(config);
  const jobs = hasJobs ? createJobQueue({ database }) : undefined;
  if (jobs) await jobs.start();
  const relatedLists = jobs ? await startRelatedListsWorker({ database, jobs }) : undefined;
  const app = await buildApp(
    { config, database, media, sessionSecret: config.sessionSecret!, jobs },
    appOptions,
  );
  let captions: CaptionWorker | undefined;
  if (jobs) {
    // As server.ts: the workers tell this app's caches of what they commit.
    const workerDeps = { config, database, media, jobs, services: app.deps.services };
    await startRenditionWorker(workerDeps);
    await startUploadWorker(workerDeps);
    if (hasCaptions) captions = await startCaptionWorker(workerDeps);
  }
  return {
    app,
    config,
    database,
    media,
    dataDir,
    close: async () => {
      relatedLists?.close();
      await captions?.close();
      await jobs?.stop({ timeoutMs: 5_000 });
      await app.close();
      await media.close();
      await database.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The routes an app made with `env` serves, read from the routes themselves: for tests that
 * make one test per route, before any app of theirs exists.
 */
export async function readRouteInventory(
  env: Record<string, string> = {},
): Promise<readonly RouteEntry[]> {
  const testApp = await createTestApp(env);
  try {
    return [...testApp.app.routeInventory];
  } finally {
    await testApp.close();
  }
}

/**
 * The app reads the versions now rather than wait for their notification, as a request that
 * committed a change does (catalog-versions.ts, `noteCommittedChange`): after a change the
 * test committed outside a request, the app's kept answers (an item's JSON, a trending page)
 * would otherwise answer until the notification arrives (docs/catalog.md, "Caches and
 * versions"). Which items the test changed is not known here: every kept answer goes.
 */
export async function readChangedVersions(testApp: TestApp): Promise<void> {
  testApp.app.deps.services.versions.noteCommittedChange('everything');
  await testApp.app.deps.services.versions.read();
}
