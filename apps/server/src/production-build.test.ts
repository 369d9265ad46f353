import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from './test-support/database.ts';
import type { TestDatabase } from './test-support/database.ts';
import { makeAnimation } from './test-support/media.ts';
import { repoRoot, runCli, startServerProcess, waitForExit } from './test-support/processes.ts';
import type { ServerProcess } from './test-support/processes.ts';
import { hasWebBuild } from './test-support/web-build.ts';

/**
 * `npm start` and the container image run the server bundled to JavaScript, without tsx
 * (docs/operations.md, "Production build"): migrations, the web build, fonts and the media
 * worker must all be found from apps/server/dist as they are from the sources.
 */
describe('the production build of the server', () => {
  let database: TestDatabase;
  let dataDir: string;
  let server: ServerProcess | undefined;
  beforeAll(() => {
    // The bundle of today's sources; skipped when they did not change since the last build.
    execFileSync(process.execPath, ['scripts/build.mjs', 'server'], { cwd: repoRoot });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-build-'));
  }, 60_000);
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    if (server?.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await waitForExit(server.child);
    }
    await database?.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts from the built JavaScript without tsx and answers /readyz and the web app', async (context) => {
    server = await startServerProcess(
      { DATABASE_URL: database.url, DATA_DIR: dataDir },
      { code: 'build' },
    );
    const commandLine = fs.readFileSync(`/proc/${server.child.pid}/cmdline`, 'utf8');
    expect(commandLine.split('\0')).toContain('apps/server/dist/bin/main.js');
    // No TypeScript loader among the modules the process mapped or was told to import.
    expect(commandLine).not.toContain('tsx');
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ok', database: 'ok' });
    // Its migrations came from apps/server/drizzle, found from the bundle's folder.
    const migrations = await database.pool.query(
      'SELECT count(*)::int AS count FROM drizzle.__drizzle_migrations',
    );
    expect(migrations.rows[0].count).toBeGreaterThan(0);
    if (!hasWebBuild(context)) return;
    const page = await fetch(`${server.url}/`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root"');
  }, 120_000);

  it('imports a GIF through the built CLI and its built media worker', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-build-import-'));
    try {
      fs.writeFileSync(path.join(folder, 'waves.gif'), await makeAnimation({ frames: 4 }));
      const result = await runCli(
        ['import', folder],
        { DATABASE_URL: database.url, DATA_DIR: dataDir, IMPORT_WORKERS: '1' },
        { code: 'build' },
      );
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^Imported 1, /m);
      const renditions = await database.pool.query(
        `SELECT count(*)::int AS count FROM renditions r JOIN items i ON i.id = r.item_id
          WHERE i.original_format = 'gif'`,
      );
      expect(renditions.rows[0].count).toBeGreaterThan(0);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  }, 120_000);
});

/**
 * The skip rule of scripts/build.mjs, run on a copy of it in a folder of its own whose web
 * "build" is a stub that counts its runs: the rule is what is tested, not Vite.
 */
describe('npm start builds the web app only when its inputs changed', () => {
  let root: string;
  const runs = () => Number(fs.readFileSync(path.join(root, 'runs'), 'utf8'));
  const build = () => {
    const result = spawnSync(process.execPath, ['scripts/build.mjs', 'web'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    return result.stdout.trim();
  };
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };

  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-build-rule-'));
    write('scripts/build.mjs', fs.readFileSync(path.join(repoRoot, 'scripts/build.mjs'), 'utf8'));
    write(
      'package.json',
      JSON.stringify({ name: 'rule', private: true, workspaces: ['apps/web'] }),
    );
    write('package-lock.json', '{}');
    write('runs', '0');
    const stub =
      "const fs = require('fs'); fs.mkdirSync('dist', { recursive: true });" +
      " fs.writeFileSync('dist/index.html', 'built');" +
      " fs.writeFileSync('../../runs', String(Number(fs.readFileSync('../../runs', 'utf8')) + 1));";
    write(
      'apps/web/package.json',
      JSON.stringify({ name: 'web', private: true, scripts: { build: `node -e "${stub}"` } }),
    );
    write('apps/web/src/main.tsx', 'export const version = 1;\n');
    write('packages/contracts/src/index.ts', 'export const limit = 1;\n');
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('builds, then skips until a web or contracts source changes', () => {
    expect(build()).toContain('built the web');
    expect(runs()).toBe(1);

    expect(build()).toBe('the web is up to date (its inputs did not change)');
    // A file touched but not changed (a checkout, an editor's save) is no change.
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(path.join(root, 'apps/web/src/main.tsx'), later, later);
    expect(build()).toBe('the web is up to date (its inputs did not change)');
    // Tests are not bundled: a new or changed one is no reason to build.
    write('apps/web/src/main.test.tsx', 'export {};\n');
    expect(build()).toBe('the web is up to date (its inputs did not change)');
    expect(runs()).toBe(1);

    write('apps/web/src/main.tsx', 'export const version = 2;\n');
    expect(build()).toContain('built the web');
    expect(runs()).toBe(2);

    write('packages/contracts/src/index.ts', 'export const limit = 2;\n');
    expect(build()).toContain('built the web');
    write('apps/web/src/new-feature.ts', 'export {};\n');
    expect(build()).toContain('built the web');
    expect(runs()).toBe(4);

    // Its output gone, it builds again whatever the stamp says.
    fs.rmSync(path.join(root, 'apps/web/dist/index.html'));
    expect(build()).toContain('built the web');
    expect(runs()).toBe(5);
    expect(build()).toBe('the web is up to date (its inputs did not change)');
  }, 60_000);
});
