import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findFreePort } from '../db/embedded.ts';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** A child's environment: nothing of the test runner's but PATH and a HOME of its own. */
const baseEnv = () => ({ PATH: process.env.PATH ?? '', HOME: os.tmpdir() });

/** `npm run sticky -- <args>` as a real process; resolves with its exit code and output. */
export function runCli(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'apps/server/src/cli/main.ts', ...args],
      { cwd: repoRoot, env: { ...baseEnv(), LOG_LEVEL: 'silent', ...env } },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface ServerProcess {
  child: ChildProcess;
  /** Its PUBLIC_URL, where it listens. */
  url: string;
  output: () => string;
}

/** What a process printed, stdout and stderr together, without its blank lines. */
export function outputLines(server: Pick<ServerProcess, 'output'>): string[] {
  return server
    .output()
    .split('\n')
    .filter((line) => line.trim() !== '');
}

/**
 * `npm start` as a real process on a free port, not waited for: for a start that is to fail
 * (then waitForExit). startServerProcess waits until it is ready.
 */
export async function spawnServerProcess(
  env: Record<string, string>,
  options: { isOwnGroup?: boolean } = {},
): Promise<ServerProcess> {
  const port = await findFreePort();
  const url = `http://localhost:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repoRoot,
    env: {
      ...baseEnv(),
      NODE_ENV: 'test',
      PORT: String(port),
      PUBLIC_URL: url,
      LOG_LEVEL: 'warn',
      SEED_STARTER_CATALOG: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // In a process group of its own, a test can signal it as a terminal signals `npm start`.
    detached: options.isOwnGroup ?? false,
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
  return { child, url, output: () => output };
}

/**
 * `npm start` as a real process on a free port, resolved once /readyz answers 200 (a plain loop,
 * so it works in beforeAll too). For tests of kill -9, restarts and several servers.
 */
export async function startServerProcess(
  env: Record<string, string>,
  options: { timeoutMs?: number; isOwnGroup?: boolean } = {},
): Promise<ServerProcess> {
  const server = await spawnServerProcess(env, options);
  const { child, url, output } = server;
  const deadline = Date.now() + (options.timeoutMs ?? 90_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited: ${output()}`);
    const status = (await fetch(`${url}/readyz`).catch(() => undefined))?.status;
    if (status === 200) return server;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server was not ready in time: ${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Resolves with the exit code when the process has ended (at once if it already has). */
export function waitForExit(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
