import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The line the server prints once it listens (apps/server/src/main.ts). */
const runningLine = 'Sticky is running at ';
const maxPortAttempts = 5;

export interface StickyServer {
  url: string;
  dataDir: string;
  process: ChildProcess;
  stop: () => Promise<void>;
}

class PortTakenError extends Error {}

/** A port that was free a moment ago: the server may still lose it to another process. */
async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Starts the real server (from its sources, through tsx, as `npm run dev` does) with a temporary
 * DATA_DIR, waits until it listens and /readyz answers, and returns how to reach and stop it.
 *
 * The port is chosen here rather than with PORT=0 because PUBLIC_URL (sign-in redirects, links)
 * must name it before the server starts. A port can be taken between the choice and the
 * server's listen: the server then exits with EADDRINUSE before printing its running line, and
 * the start is tried again on another port. Readiness is the server's own running line, so a
 * different process that took the port is never mistaken for ours (docs/testing.md, "e2e").
 */
export async function startStickyServer(
  env: Record<string, string> = {},
  options: {
    timeoutMs?: number;
    dataDir?: string;
    /** The checkout whose server runs (its `cwd`): another commit's work tree for a baseline. */
    root?: string;
  } = {},
): Promise<StickyServer> {
  const isOwnDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-e2e-'));
  fs.chmodSync(dataDir, 0o755);
  // A DATA_DIR made here goes with the server; one passed in is the caller's to keep.
  const removeDataDir = () => {
    if (isOwnDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  };
  for (let attempt = 1; ; attempt += 1) {
    try {
      const server = await launchOnPort(
        await findFreePort(),
        dataDir,
        env,
        options.timeoutMs ?? 120_000,
        options.root ?? repoRoot,
      );
      const stop = server.stop;
      return {
        ...server,
        stop: async () => {
          await stop();
          removeDataDir();
        },
      };
    } catch (error) {
      if (!(error instanceof PortTakenError) || attempt >= maxPortAttempts) {
        removeDataDir();
        throw error;
      }
    }
  }
}

async function launchOnPort(
  port: number,
  dataDir: string,
  env: Record<string, string>,
  timeoutMs: number,
  root: string,
): Promise<StickyServer> {
  const url = `http://localhost:${port}`;
  const logFile = path.join(dataDir, 'server.log');
  const log = fs.createWriteStream(logFile, { flags: 'a' });
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const onOutput = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    log.write(chunk);
  };
  child.stdout.on('data', onOutput);
  child.stderr.on('data', onOutput);
  const closeLog = () => new Promise<void>((resolve) => log.end(resolve));

  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
  };

  try {
    await waitForRunningLine(child, () => output, timeoutMs);
    await waitForReady(url, child, () => output, timeoutMs);
  } catch (error) {
    await kill();
    await closeLog();
    throw error;
  }

  return {
    url,
    dataDir,
    process: child,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        // A server that does not stop in time is killed: the next run needs its DATA_DIR.
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(timer);
      }
      await closeLog();
    },
  };
}

/** Resolves on the server's running line; rejects when it exits first or takes too long. */
function waitForRunningLine(
  child: ChildProcess,
  readOutput: () => string,
  timeoutMs: number,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (error?: Error) => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve();
    };
    const onData = () => {
      if (readOutput().includes(runningLine)) done();
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      const output = readOutput();
      if (output.includes('EADDRINUSE')) done(new PortTakenError(output));
      else done(new Error(`server exited (${code ?? signal}) before listening:\n${output}`));
    };
    const timer = setTimeout(
      () => done(new Error(`server did not start in ${timeoutMs} ms:\n${readOutput()}`)),
      timeoutMs,
    );
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
    onData();
  });
}

/** Polls /readyz (the database answers) until it says 200. */
async function waitForReady(
  url: string,
  child: ChildProcess,
  readOutput: () => string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`server exited with ${child.exitCode}:\n${readOutput()}`);
    }
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {
      // a connection refused right after listening: ask again
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`server not ready in ${timeoutMs} ms:\n${readOutput()}`);
}

/**
 * Waits until the server's starter catalog, which fills in behind the running server, is made:
 * the `catalog` field of /readyz is the signal. Only specs that browse the starter catalog need
 * it; the seed keeps running meanwhile, so others start at once.
 */
export async function waitForStarterCatalog(url: string, timeoutMs = 15 * 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let catalog: string | undefined;
  while (Date.now() < deadline) {
    const response = await fetch(`${url}/readyz`);
    catalog = ((await response.json()) as { catalog?: string }).catalog;
    if (catalog === 'ready' || catalog === 'off') return;
    if (catalog === 'failed') throw new Error('the starter catalog could not be made');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  throw new Error(`the starter catalog was still ${catalog} after ${timeoutMs / 1000} s`);
}
