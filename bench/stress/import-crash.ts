import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { connectToEmbedded } from './database.ts';
import { checkIntegrity } from './integrity.ts';
import type { IntegrityReport } from './integrity.ts';
import { refusedExitCode } from '../../apps/server/src/cli/import-command.ts';
import { isProcessAlive } from '../../apps/server/src/lib/process-alive.ts';
import { postmasterPid, repoRoot, sleep, startServer } from './server.ts';

/** Every process below `pid`, from /proc (the CLI's PostgreSQL and its decoder workers). */
function descendants(pid: number): Array<{ pid: number; command: string }> {
  const children = new Map<number, number[]>();
  const commands = new Map<number, string>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
      commands.set(
        Number(entry),
        fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ').trim(),
      );
    } catch {
      // gone meanwhile
    }
  }
  const found: Array<{ pid: number; command: string }> = [];
  const queue = [...(children.get(pid) ?? [])];
  while (queue.length > 0) {
    const next = queue.shift()!;
    found.push({ pid: next, command: (commands.get(next) ?? '').slice(0, 120) });
    queue.push(...(children.get(next) ?? []));
  }
  return found;
}

function runImport(dataDir: string, source: string) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'apps/server/src/cli/main.ts', 'import', source],
    {
      cwd: repoRoot,
      env: { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'development', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return { child, exited, output: () => output };
}

/** "rejected N" from the import's summary line. */
function rejectedCount(output: string): number {
  return Number(/rejected (\d+)/.exec(output)?.[1] ?? 0);
}

async function countItems(dataDir: string): Promise<number | undefined> {
  if (!postmasterPid(dataDir)) return undefined;
  const database = connectToEmbedded(dataDir);
  try {
    const result = await database.pool.query<{ count: string }>('SELECT count(*) FROM items');
    return Number(result.rows[0]!.count);
  } catch {
    return undefined;
  } finally {
    await database.close().catch(() => {});
  }
}

/**
 * `kill -9` of the import CLI while it imports the shared GIFs, then: start the server on that
 * DATA_DIR and check that no item is half there and no file is orphaned; run the import again
 * to the end and check the same.
 */
export async function runImportCrash(options: {
  workDir: string;
  log: (line: string) => void;
  fileCount?: number;
}) {
  const { log } = options;
  const source = path.resolve(repoRoot, '../shared/data/gifs');
  if (!fs.existsSync(source))
    return { skipped: `${source} is absent (../shared/data not beside the repo)` };
  if (!fs.existsSync(path.join(repoRoot, 'apps/server/src/cli/main.ts'))) {
    return { skipped: 'no import CLI (apps/server/src/cli/main.ts) yet' };
  }
  // A bounded import: the smallest files of the shared set, with their manifest entries.
  const manifest = JSON.parse(fs.readFileSync(path.join(source, 'manifest.json'), 'utf8')) as {
    items: Array<{ file: string }>;
  };
  const chosen = manifest.items
    .filter((item) => fs.existsSync(path.join(source, item.file)))
    .sort(
      (a, b) =>
        fs.statSync(path.join(source, a.file)).size - fs.statSync(path.join(source, b.file)).size,
    )
    .slice(0, options.fileCount ?? 16);
  const folder = path.join(options.workDir, 'import-source');
  fs.mkdirSync(folder, { recursive: true });
  for (const item of chosen)
    fs.copyFileSync(path.join(source, item.file), path.join(folder, item.file));
  fs.writeFileSync(
    path.join(folder, 'manifest.json'),
    JSON.stringify({ ...manifest, items: chosen }),
  );

  const dataDir = path.join(options.workDir, 'import');
  fs.mkdirSync(dataDir, { recursive: true });
  fs.chmodSync(dataDir, 0o755);
  const mediaDir = path.join(dataDir, 'media');

  // 1. Import, and kill -9 it once a few items are in (so others are mid-way).
  const first = runImport(dataDir, folder);
  const deadline = Date.now() + 240_000;
  let itemsAtKill: number | undefined;
  while (Date.now() < deadline && first.child.exitCode === null) {
    itemsAtKill = await countItems(dataDir);
    if (itemsAtKill !== undefined && itemsAtKill >= 3) break;
    await sleep(250);
  }
  if (first.child.exitCode !== null) {
    return {
      isPassed: false,
      reason: `the import ended (${first.child.exitCode}) before it could be killed:\n${first.output().slice(-1500)}`,
      result: {},
    };
  }
  const before = descendants(first.child.pid!);
  first.child.kill('SIGKILL');
  await first.exited;
  log(
    `killed the import (pid ${first.child.pid}) with ${itemsAtKill} items in; its processes: ${before.length}`,
  );
  // Its decoder workers end once their parent is gone (after the file in hand); its
  // PostgreSQL stays until the next start stops it (db/embedded.ts).
  const killedAt = Date.now();
  const isWorker = (entry: { command: string }) => !entry.command.includes('postgres');
  const isWorkerAlive = () => before.some((entry) => isWorker(entry) && isProcessAlive(entry.pid));
  while (Date.now() - killedAt < 30_000 && isWorkerAlive()) await sleep(250);
  const workersGoneAfterS = (Date.now() - killedAt) / 1000;
  const survivors = before.filter((entry) => isWorker(entry) && isProcessAlive(entry.pid));
  const postgresLeft = before.filter((entry) => !isWorker(entry) && isProcessAlive(entry.pid));

  // 2. Start again (the server), then look at what the crash left.
  const server = await startServer(dataDir, { SEED_STARTER_CATALOG: 'false' });
  const postgresAfterStart = postgresLeft.filter((entry) => isProcessAlive(entry.pid));
  let afterCrash: IntegrityReport;
  try {
    const database = connectToEmbedded(dataDir);
    afterCrash = await checkIntegrity(database, mediaDir);
    await database.close();
  } finally {
    await server.stop();
  }
  log(`after the crash and a restart: ${JSON.stringify(afterCrash)}`);

  // 3. The import runs again to the end.
  const second = runImport(dataDir, folder);
  const timer = setTimeout(() => second.child.kill('SIGTERM'), 600_000);
  const code = await second.exited;
  clearTimeout(timer);
  const summary =
    second
      .output()
      .split('\n')
      .find((line) => line.startsWith('Imported')) ?? '';
  log(`re-run: exit ${code}: ${summary}`);

  const checkServer = await startServer(dataDir, { SEED_STARTER_CATALOG: 'false' });
  let afterRerun: IntegrityReport;
  try {
    const database = connectToEmbedded(dataDir);
    afterRerun = await checkIntegrity(database, mediaDir);
    await database.close();
  } finally {
    await checkServer.stop();
  }
  log(`after the re-run: ${JSON.stringify(afterRerun)}`);

  const problems = [
    !afterCrash.isIntact && `after the crash: ${JSON.stringify(afterCrash)}`,
    // A refused file is counted below: its exit code says only that there was one.
    code !== 0 &&
      !(code === refusedExitCode && rejectedCount(second.output()) > 0) &&
      `the re-run exited ${code}: ${second.output().slice(-1000)}`,
    !afterRerun.isIntact && `after the re-run: ${JSON.stringify(afterRerun)}`,
    afterRerun.stagingFiles > 0 && `${afterRerun.stagingFiles} staging files left`,
    afterRerun.items < chosen.length - rejectedCount(second.output()) &&
      `only ${afterRerun.items} of ${chosen.length} files are in the catalog`,
    survivors.length > 0 &&
      `workers of the killed import still running after 30 s: ${JSON.stringify(survivors)}`,
    postgresAfterStart.length > 0 &&
      `its PostgreSQL still runs after a new start: ${JSON.stringify(postgresAfterStart)}`,
  ].filter(Boolean);
  return {
    isPassed: problems.length === 0,
    reason: problems.join('; ') || undefined,
    result: {
      files: chosen.length,
      itemsAtKill,
      processesAtKill: before,
      workersGoneAfterS,
      postgresLeftAtKill: postgresLeft.length,
      survivors,
      afterCrash,
      rerun: { code, summary },
      afterRerun,
    },
  };
}
