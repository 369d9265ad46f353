import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findFreePort } from '../db/embedded.ts';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** A child's environment: nothing of the test runner's but PATH and a HOME of its own. */
const baseEnv = () => ({ PATH: process.env.PATH ?? '', HOME: os.tmpdir() });

/**
 * Which code a process runs: the TypeScript sources through tsx (`npm run dev`, `npm run
 * sticky`), or the production build `npm start` and the image run (docs/operations.md,
 * "Production build"; `node scripts/build.mjs server` makes it).
 */
export type ServerCode = 'sources' | 'build';

const entryArgs: Record<ServerCode, { server: string[]; cli: string[] }> = {
  sources: {
    server: ['--import', 'tsx', 'apps/server/src/main.ts'],
    cli: ['--import', 'tsx', 'apps/server/src/cli/main.ts'],
  },
  build: { server: ['apps/server/dist/bin/main.js'], cli: ['apps/server/dist/bin/cli.js'] },
};

/** `npm run sticky -- <args>` as a real process; resolves with its exit code and output. */
export function runCli(
  args: string[],
  env: Record<string, string>,
  options: { code?: ServerCode } = {},
) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [...entryArgs[options.code ?? 'sources'].cli, ...args], {
      cwd: repoRoot,
      env: { ...baseEnv(), LOG_LEVEL: 'silent', ...env },
    });
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
 * `npm start` as a real process on a port that was free a moment ago, not waited for: for a
 * start that is to fail (then waitForExit). startServerProcess waits until it is ready, and
 * starts again on another port should that one be taken meanwhile.
 */
export async function spawnServerProcess(
  env: Record<string, string>,
  options: {
    isOwnGroup?: boolean;
    /** The port to use (a test of a taken one); free if absent. */ port?: number;
    code?: ServerCode;
  } = {},
): Promise<ServerProcess> {
  const port = options.port ?? (await findFreePort());
  const url = `http://localhost:${port}`;
  const child = spawn(process.execPath, entryArgs[options.code ?? 'sources'].server, {
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

/** The line the server prints once it listens (main.ts). */
const runningLine = 'Sticky is running at ';
const maxPortAttempts = 5;

class PortTakenError extends Error {}

/**
 * `npm start` as a real process on a free port, resolved once it is ready (a plain loop, so it
 * works in beforeAll too). For tests of kill -9, restarts and several servers.
 *
 * The port is chosen before the start, as PUBLIC_URL must name it, so another process can take
 * it in between: the server then exits with EADDRINUSE before its running line, and the start is
 * tried again on another port. Ready means its own running line, then 200 from /readyz asked of
 * the address it listens on, so no other process's answer is taken for it (docs/testing.md,
 * "Server tests").
 */
export async function startServerProcess(
  env: Record<string, string>,
  options: {
    timeoutMs?: number;
    isOwnGroup?: boolean;
    /** The first port tried. */ port?: number;
    code?: ServerCode;
  } = {},
): Promise<ServerProcess> {
  const deadline = Date.now() + (options.timeoutMs ?? 90_000);
  for (let attempt = 1; ; attempt += 1) {
    const server = await spawnServerProcess(env, {
      isOwnGroup: options.isOwnGroup,
      code: options.code,
      port: attempt === 1 ? options.port : undefined,
    });
    try {
      await waitForRunningLine(server, deadline);
      await waitForReady(server, env.HOST, deadline);
      return server;
    } catch (error) {
      if (server.child.exitCode === null && server.child.signalCode === null) {
        server.child.kill('SIGKILL');
        await waitForExit(server.child);
      }
      if (!(error instanceof PortTakenError) || attempt >= maxPortAttempts) throw error;
    }
  }
}

/** Resolves on the server's running line; rejects when it exits first or the deadline passes. */
function waitForRunningLine(server: ServerProcess, deadline: number): Promise<void> {
  const { child, output } = server;
  return new Promise((resolve, reject) => {
    const done = (error?: Error) => {
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve();
    };
    const onData = () => {
      if (output().includes(runningLine)) done();
    };
    const onExit = () => {
      // Output may still be in the pipe when 'exit' fires: 'close' comes after all of it.
      child.once('close', () => {
        if (output().includes('EADDRINUSE')) done(new PortTakenError(output()));
        else done(new Error(`the server exited: ${output()}`));
      });
    };
    const timer = setTimeout(
      () => done(new Error(`the server did not start in time: ${output()}`)),
      Math.max(0, deadline - Date.now()),
    );
    child.stdout!.on('data', onData);
    child.once('exit', onExit);
    onData();
  });
}

/** Polls /readyz on the very address the server listens on until it answers 200. */
async function waitForReady(
  server: ServerProcess,
  host: string | undefined,
  deadline: number,
): Promise<void> {
  const { child, output } = server;
  const { port, host: hostHeader } = new URL(server.url);
  // HOST as main.ts gets it (127.0.0.1 by default; a wildcard is reached on loopback). Asking
  // "localhost" could reach another process listening on ::1 at the same port.
  const address = !host || host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited: ${output()}`);
    if ((await readStatus(address, Number(port), '/readyz', hostHeader)) === 200) return;
    if (Date.now() > deadline) throw new Error(`the server was not ready in time: ${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The status of a GET to exactly `address`:`port`, or undefined when none came. */
function readStatus(
  address: string,
  port: number,
  pathname: string,
  hostHeader: string,
): Promise<number | undefined> {
  return new Promise((resolve) => {
    const request = http.get(
      { host: address, port, path: pathname, headers: { host: hostHeader } },
      (response) => {
        response.resume();
        resolve(response.statusCode);
      },
    );
    request.setTimeout(5_000, () => request.destroy());
    request.on('error', () => resolve(undefined));
  });
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
