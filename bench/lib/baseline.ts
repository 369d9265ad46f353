import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { log } from './log.ts';
import { repoRoot } from './paths.ts';
import { watchProcessTree } from './process-tree.ts';
import type { TreeMemory } from './process-tree.ts';
import { createDataDir } from './server.ts';

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
  /** From the command's start until it exited: its code made every rendition before that. */
  seconds: number;
  /** The command's own summary line ("Imported 96, skipped 0 as duplicates, rejected 0 …"). */
  summary: string;
  memory: TreeMemory;
}

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
  const summary = stdout.split('\n').find((line) => line.startsWith('Imported ')) ?? '';
  if (code !== 0 || !summary) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw new Error(
      `${baseline.commit}'s import exited with ${code}:\n${(stdout + stderr).slice(-2000)}`,
    );
  }
  log(`baseline: ${summary} (${seconds.toFixed(1)} s until it exited)`);
  return { dataDir, seconds, summary, memory };
}
