import { execFile, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { refusedExitCode } from '../../apps/server/src/cli/import-command.ts';
import { watchDecoderMemory } from '../import/decoder-memory.ts';
import type { DecodersMemory } from '../import/decoder-memory.ts';
import type { ImportRun } from '../import/index.ts';
import { log } from './log.ts';
import { repoRoot } from './paths.ts';
import { watchProcessTree } from './process-tree.ts';
import type { TreeMemory } from './process-tree.ts';
import { createDataDir } from './server.ts';
import { ratioOf, round } from './stats.ts';

/** Another commit of Sticky, installed and built beside this checkout. */
export interface Baseline {
  /** The commit, short. */
  commit: string;
  /** Its work tree: run its server with `cwd` here. */
  root: string;
}

const run = (command: string, args: string[], cwd: string) =>
  execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/**
 * A work tree of `ref` with its own dependencies (`npm ci` from its lockfile) and its web app
 * built, kept in the temporary folder between runs: the bench measures the code of another
 * commit in the same run as this one, on the same machine at the same moment, so "before and
 * after" are compared under the same load. Reused when already prepared.
 */
export function prepareBaseline(ref: string, options: { hasWeb?: boolean } = {}): Baseline {
  const commit = run('git', ['rev-parse', '--short', `${ref}^{commit}`], repoRoot);
  const root = path.join(os.tmpdir(), `sticky-bench-baseline-${commit}`);
  const installed = path.join(root, '.bench-installed');
  if (!fs.existsSync(installed)) {
    fs.rmSync(root, { recursive: true, force: true });
    run('git', ['worktree', 'prune'], repoRoot);
    log(`baseline: checking out ${commit} in ${root}`);
    run('git', ['worktree', 'add', '--detach', '--force', root, commit], repoRoot);
    log(`baseline: installing its dependencies (npm ci)`);
    run('npm', ['ci', '--no-audit', '--no-fund'], root);
    fs.writeFileSync(installed, `${new Date().toISOString()}\n`);
  }
  const built = path.join(root, 'apps', 'web', 'dist', 'index.html');
  if (options.hasWeb && !fs.existsSync(built)) {
    log(`baseline: building its web app`);
    run('npm', ['run', 'build'], root);
  }
  return { commit, root };
}

export interface BaselineImport {
  /** The DATA_DIR it imported into: start the baseline's server on it. */
  dataDir: string;
  workers: number;
  /** From the command's start until it exited (its database's start and migrations included). */
  seconds: number;
  /** The command's own summary line ("Imported 96, skipped 0 as duplicates, rejected 0 …"). */
  summary: string;
  /** Read from the summary: files handled, and the seconds its import of them took. */
  files: number;
  imported: number;
  rejected: number;
  importSeconds: number;
  /** The CLI, its decoders and PostgreSQL (bench/lib/process-tree.ts). */
  memory: TreeMemory;
  /** Each decoder process (media-worker.ts, one per worker at a time) on its own. */
  decoders: DecodersMemory;
}

/** The import CLI's last line (cli/import-command.ts formatSummary, unchanged since 9dd097c). */
const summaryPattern =
  /^Imported (\d+), skipped (\d+) as duplicates, rejected (\d+) \((\d+) files, [\d.]+ MB in ([\d.]+) s\)/;

/**
 * Imports `inputs` into a fresh DATA_DIR through the baseline's own import path, its CLI
 * (`npm run sticky -- import <folder or files…>` run in its work tree), so its catalog is what
 * that commit made of the same files, on its own schema.
 */
export async function importWithBaseline(
  baseline: Baseline,
  inputs: readonly string[],
  options: { workers: number; timeoutMs: number },
): Promise<BaselineImport> {
  const dataDir = createDataDir(`baseline-${baseline.commit}`);
  log(`baseline: importing ${inputs.length} path(s) with ${baseline.commit}'s CLI into ${dataDir}`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    IMPORT_WORKERS: String(options.workers),
    LOG_LEVEL: 'warn',
  };
  // Its own embedded PostgreSQL in DATA_DIR, never a database this shell may point at.
  delete env.DATABASE_URL;
  const started = performance.now();
  // A process group of its own, so a run past its time is ended with every decoder it started.
  const child = spawn('npm', ['run', '--silent', 'sticky', '--', 'import', ...inputs], {
    cwd: baseline.root,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const killGroup = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  process.once('exit', killGroup);
  const watcher = watchProcessTree(child.pid!);
  const decoderWatcher = watchDecoderMemory(child.pid!);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  const timer = setTimeout(killGroup, options.timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearTimeout(timer);
  process.removeListener('exit', killGroup);
  const seconds = (performance.now() - started) / 1000;
  const memory = watcher.stop();
  const decoders = decoderWatcher.stop();
  const summary = stdout.split('\n').find((line) => line.startsWith('Imported ')) ?? '';
  const parsed = summaryPattern.exec(summary);
  // A refused file is counted in the summary: its exit code says only that there was one.
  if ((code !== 0 && code !== refusedExitCode) || !parsed) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw new Error(
      `${baseline.commit}'s import exited with ${code}:\n${(stdout + stderr).slice(-2000)}`,
    );
  }
  log(`baseline: ${summary} (${seconds.toFixed(1)} s until it exited)`);
  return {
    dataDir,
    workers: options.workers,
    seconds,
    summary,
    files: Number(parsed[4]),
    imported: Number(parsed[1]),
    rejected: Number(parsed[3]),
    importSeconds: Number(parsed[5]),
    memory,
    decoders,
  };
}

/** Import files/s of this commit and of the baseline's CLI, same files, same workers, same run. */
export interface ImportBeforeAfter {
  commit: string;
  workers: number;
  before: {
    files: number;
    rejected: number;
    /** The CLI's own time for importing (every rendition made: its items were then visible). */
    seconds: number;
    filesPerSecond: number;
    /** Until the CLI exited, its database's start included. */
    wallSeconds: number;
    /** Largest RSS of one decoder (one worker's process). */
    peakWorkerRssBytes: number;
    /** Largest sum over the CLI and its decoders at one moment (PostgreSQL apart). */
    peakNodeRssBytes: number;
  };
  after: {
    files: number;
    rejected: number;
    /** Until every item is visible (its ready renditions made). */
    seconds: number;
    filesPerSecond: number;
    peakWorkerRssBytes: number;
    /** With the encoders (ffmpeg) it ran. */
    peakWorkerWithEncodersRssBytes: number;
    peakNodeRssBytes: number;
  };
  /** after ÷ before files/s (issue 17: at least 5). */
  speedup: number;
}

/** This commit's run with the baseline's workers (until every item is visible) beside its CLI's. */
export function compareImports(
  commit: string,
  before: BaselineImport,
  after: ImportRun,
): ImportBeforeAfter {
  const beforeFilesPerSecond = before.files / before.importSeconds;
  return {
    commit,
    workers: before.workers,
    before: {
      files: before.files,
      rejected: before.rejected,
      seconds: before.importSeconds,
      filesPerSecond: round(beforeFilesPerSecond, 3),
      wallSeconds: round(before.seconds, 1),
      peakWorkerRssBytes: before.decoders.peakRssBytes,
      peakNodeRssBytes: before.memory.peakNodeRssBytes,
    },
    after: {
      files: after.files,
      rejected: after.rejected.length,
      seconds: after.seconds,
      filesPerSecond: after.filesPerSecond,
      peakWorkerRssBytes: after.decoders.peakRssBytes,
      peakWorkerWithEncodersRssBytes: after.decoders.peakWithEncodersRssBytes,
      peakNodeRssBytes: after.memory.peakNodeRssBytes,
    },
    speedup: round(ratioOf(after.filesPerSecond, beforeFilesPerSecond), 2),
  };
}

/**
 * Runs `call` (an expression over `module`, the baseline's `file` under apps/server/src, and
 * `database` and `config` made by the baseline's own code for its server) in a process of the
 * baseline's checkout, and returns what it printed as JSON; undefined when the module lacks
 * `exported` (the baseline's code is older than the feature).
 */
async function runBaselineCode<T>(
  baseline: Baseline,
  server: { dataDir: string; url: string; databaseUrl: string },
  file: string,
  exported: string,
  call: string,
): Promise<T | undefined> {
  const module = (name: string) =>
    JSON.stringify(pathToFileURL(path.join(baseline.root, 'apps/server/src', name)).href);
  const script = `
    const { loadConfig } = await import(${module('config/env.ts')});
    const { connectDatabase } = await import(${module('db/client.ts')});
    const module = await import(${module(file)}).catch(() => ({}));
    if (!module[${JSON.stringify(exported)}]) { console.log('null'); process.exit(0); }
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: ${JSON.stringify(server.dataDir)},
      PUBLIC_URL: ${JSON.stringify(server.url)}, DATABASE_URL: ${JSON.stringify(server.databaseUrl)},
      SESSION_SECRET: 'sticky-bench-session-secret-0123456789abcdef' });
    const database = connectDatabase(config.databaseUrl);
    try { console.log(JSON.stringify(await ${call})); }
    finally { await database.close(); }`;
  const output = await new Promise<string>((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: baseline.root, maxBuffer: 1024 * 1024 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
    );
  });
  const result = JSON.parse(output.trim().split('\n').at(-1) ?? 'null') as T | null;
  return result ?? undefined;
}

/**
 * Makes the baseline's item documents ahead with its own code, as its catalog maintenance does
 * within a minute of a start (docs/catalog.md, "Item documents"): a catalog grown behind a
 * running server has none until then, and a baseline serializing every item of a cold page from
 * its rows measured slower than ours on the same code. Undefined when the baseline's code has
 * no item documents (before stop 30: 9dd097c, the issues' own baseline, has none).
 */
export function refreshBaselineDocuments(
  baseline: Baseline,
  server: { dataDir: string; url: string; databaseUrl: string },
): Promise<{ made: number; removed: number } | undefined> {
  return runBaselineCode(
    baseline,
    server,
    'catalog/query/item-json.ts',
    'refreshItemDocuments',
    'module.refreshItemDocuments({ config, database })',
  );
}

/**
 * Rebuilds the baseline's related lists with its own code (forced: the synthetic catalog grows
 * with their triggers off), since the lists' layout changes between commits (migration 0018
 * added entries). Undefined when the baseline's code has no related lists.
 */
export function refreshBaselineRelatedLists(
  baseline: Baseline,
  server: { dataDir: string; url: string; databaseUrl: string },
): Promise<{ ms: number } | undefined> {
  return runBaselineCode(
    baseline,
    server,
    'catalog/import/related-lists-job.ts',
    'refreshRelatedLists',
    'module.refreshRelatedLists(database, { isForced: true })',
  );
}
