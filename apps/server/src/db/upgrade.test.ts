import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { hashToken } from '../auth/sessions.ts';
import { loadConfig } from '../config/env.ts';
import { startServer } from '../server.ts';
import type { RunningServer } from '../server.ts';
import { createFixtureId, slugFor, standardRenditions } from '../test-support/catalog-fixtures.ts';
import { connectDatabase } from './client.ts';
import type { DatabaseHandle } from './client.ts';
import { migrateDatabase, MigrationError, migrationsFolder, readMigrations } from './migrate.ts';

/** The migrations of a Sticky from before issue 48: up to 0011 (uploads, tokens, their files). */
const earlierLevel = 12;

/** A database with nothing in it, not even the migrations (the run's template has them all). */
async function createEmptyDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `upgrade_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: inject('postgresAdminUrl') });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  return {
    url: inject('postgresAdminUrl').replace(/\/postgres$/, `/${name}`),
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/** A migrations folder holding this repository's first `count` migrations, plus `extra` files. */
function writeMigrationsFolder(
  count: number,
  extra: Array<{ tag: string; sql: string }> = [],
): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-migrations-'));
  fs.mkdirSync(path.join(folder, 'meta'));
  const journal = JSON.parse(
    fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8'),
  ) as { entries: Array<{ idx: number; tag: string; when: number }> };
  const entries = journal.entries.slice(0, count);
  for (const entry of entries) {
    fs.copyFileSync(
      path.join(migrationsFolder, `${entry.tag}.sql`),
      path.join(folder, `${entry.tag}.sql`),
    );
  }
  for (const file of extra) {
    fs.writeFileSync(path.join(folder, `${file.tag}.sql`), file.sql);
    entries.push({
      ...entries.at(-1)!,
      idx: entries.length,
      tag: file.tag,
      when: entries.at(-1)!.when + 1000,
    });
  }
  fs.writeFileSync(
    path.join(folder, 'meta', '_journal.json'),
    JSON.stringify({ ...journal, entries }, null, 2),
  );
  return folder;
}

describe('a database made by an earlier Sticky', () => {
  let empty: { url: string; drop: () => Promise<void> };
  let server: RunningServer;
  let dataDir: string;
  const person = { id: randomUUID(), session: randomBytes(32).toString('base64url') };
  const secret = `sticky_${randomBytes(32).toString('base64url')}`;
  const shown = createFixtureId();
  const hidden = createFixtureId();

  beforeAll(async () => {
    empty = await createEmptyDatabase();
    const earlier = connectDatabase(empty.url);
    const folder = writeMigrationsFolder(earlierLevel);
    try {
      await migrateDatabase(earlier, { folder });
      // Rows as that version wrote them, in its columns.
      const sql = (text: string, values: unknown[] = []) => earlier.pool.query(text, values);
      await sql(
        `INSERT INTO users (id, issuer, subject, email, name) VALUES ($1, 'test', $1, 'ada@example.com', 'Ada')`,
        [person.id],
      );
      await sql(
        `INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 day')`,
        [hashToken(person.session), person.id],
      );
      await sql(
        `INSERT INTO api_tokens (id, user_id, name, token_hash) VALUES ($1, $2, 'ShareX', $3)`,
        [randomUUID(), person.id, hashToken(secret)],
      );
      for (const [id, title, hiddenAt] of [
        [shown, 'Waving otter', null],
        [hidden, 'Hidden otter', new Date()],
      ] as const) {
        await sql(
          `INSERT INTO items (id, type, slug, title, tags, width, height, frames, duration_ms, bytes,
                              sha256, original_format, owner_id, hidden_at)
           VALUES ($1, 'gif', $2, $3, '{otter,wave}', 480, 360, 12, 1200, 1000, $4, 'gif', $5, $6)`,
          [id, slugFor(title, id), title, randomBytes(32).toString('hex'), person.id, hiddenAt],
        );
        for (const rendition of standardRenditions(id, 480, 360, 12)) {
          await sql(
            `INSERT INTO renditions (item_id, name, format, width, height, frames, bytes, path)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
            [
              id,
              rendition.name,
              rendition.format,
              rendition.width,
              rendition.height,
              rendition.frames,
              rendition.bytes,
              rendition.path,
            ],
          );
        }
        await sql(
          `INSERT INTO uploads (id, user_id, item_id, state, file_name, bytes, sha256, metadata)
           VALUES ($1, $2, $3, 'ready', $4, 1000, $5, '{}'::jsonb)`,
          [randomUUID(), person.id, id, `${title}.gif`, randomBytes(32).toString('hex')],
        );
      }
      await sql(`INSERT INTO favorites (user_id, item_id) VALUES ($1, $2)`, [person.id, shown]);
    } finally {
      await earlier.close();
      fs.rmSync(folder, { recursive: true, force: true });
    }

    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-upgrade-'));
    server = await startServer(
      loadConfig({
        NODE_ENV: 'test',
        DATA_DIR: dataDir,
        DATABASE_URL: empty.url,
        PORT: '0',
        PUBLIC_URL: 'http://localhost:3999',
        SESSION_SECRET: 'test-session-secret-that-is-long-enough-0123456789',
        SEED_STARTER_CATALOG: 'false',
        LOG_LEVEL: 'silent',
        LOCAL_SIGN_IN: '1',
        ALLOWED_HOSTS: 'localhost,127.0.0.1',
      }),
      pino({ level: 'silent' }),
    );
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await empty?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('migrates itself at start to today’s level', async () => {
    const { rows } = await server.database.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations',
    );
    expect(rows[0]!.n).toBe(readMigrations().length);
  });

  it('serves its items, its hidden item hidden, its favorites, sessions, tokens and uploads', async () => {
    const cookie = `sticky_session=${person.session}`;
    const byIds = await server.app.inject({
      url: `/v1/gifs?ids=${shown},${hidden}`,
      headers: { cookie },
    });
    expect(byIds.statusCode, byIds.body).toBe(200);
    expect(byIds.json().data.map((item: { id: string; title: string }) => item.title)).toEqual([
      'Waving otter',
    ]);

    const search = await server.app.inject({ url: '/v1/gifs/search?q=otter', headers: { cookie } });
    expect(search.statusCode, search.body).toBe(200);
    expect(search.json().data.map((item: { id: string }) => item.id)).toEqual([shown]);

    const favorites = await server.app.inject({ url: '/api/favorites', headers: { cookie } });
    expect(favorites.statusCode, favorites.body).toBe(200);
    expect(favorites.json().ids).toEqual([shown]);

    const uploads = await server.app.inject({
      url: '/api/uploads?limit=10',
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(uploads.statusCode, uploads.body).toBe(200);
    const states = Object.fromEntries(
      (uploads.json().uploads as Array<{ itemId: string; state: string }>).map((upload) => [
        upload.itemId,
        upload.state,
      ]),
    );
    expect(states).toEqual({ [shown]: 'ready', [hidden]: 'hidden' });
  });
});

describe('a migration that fails', () => {
  let empty: { url: string; drop: () => Promise<void> };
  let database: DatabaseHandle;
  let folder: string;

  beforeAll(async () => {
    empty = await createEmptyDatabase();
    database = connectDatabase(empty.url);
    await migrateDatabase(database, { folder: writeMigrationsFolder(earlierLevel) });
  });
  afterAll(async () => {
    await database?.close();
    await empty?.drop();
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
  });

  it('leaves the database as it was and says which file failed, in one line', async () => {
    const tablesOf = async () =>
      (
        await database.pool.query<{ name: string }>(
          `SELECT table_schema || '.' || table_name AS name FROM information_schema.tables
            WHERE table_schema IN ('public', 'drizzle') ORDER BY 1`,
        )
      ).rows.map((row) => row.name);
    const before = await tablesOf();
    const applied = await database.pool.query('SELECT * FROM drizzle.__drizzle_migrations');
    // Every later migration of this repository, then one that breaks after it changed things.
    folder = writeMigrationsFolder(readMigrations().length, [
      {
        tag: '0099_broken',
        sql: 'CREATE TABLE "upgrade_probe" ("id" integer);--> statement-breakpoint\nSELECT no_such_function();',
      },
    ]);
    const failure = await migrateDatabase(database, { folder }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MigrationError);
    const message = (failure as Error).message;
    expect(message.split('\n')).toHaveLength(1);
    expect(message).toMatch(
      /^Migration 0099_broken\.sql failed: function no_such_function\(\) does not exist\. The database is unchanged/,
    );
    expect(await tablesOf()).toEqual(before);
    const after = await database.pool.query('SELECT * FROM drizzle.__drizzle_migrations');
    expect(after.rows).toEqual(applied.rows);
  });
});
