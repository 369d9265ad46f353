import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface StressServer {
  url: string;
  port: number;
  dataDir: string;
  logFile: string;
  process: ChildProcess;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  stop: () => Promise<void>;
}

export async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The server from its sources (through tsx, as `npm run dev` runs it), logging to a file. */
export function spawnServer(
  dataDir: string,
  env: Record<string, string> = {},
  logDir = path.dirname(dataDir),
): StressServer {
  const logFile = path.join(logDir, `${path.basename(dataDir)}-server-${Date.now()}.log`);
  const log = fs.openSync(logFile, 'a');
  const port = Number(env.PORT);
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PUBLIC_URL: `http://localhost:${port}`,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', log, log],
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return {
    url: `http://localhost:${port}`,
    port,
    dataDir,
    logFile,
    process: child,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await Promise.race([exited, sleep(20_000)]);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
      fs.closeSync(log);
    },
  };
}

/** Starts the server and waits until /readyz answers 200. */
export async function startServer(
  dataDir: string,
  env: Record<string, string> = {},
  options: { timeoutMs?: number; logDir?: string } = {},
): Promise<StressServer> {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const port = await findFreePort();
  const server = spawnServer(dataDir, { PORT: String(port), ...env }, options.logDir);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (server.process.exitCode !== null) {
      throw new Error(`server exited with ${server.process.exitCode}:\n${tail(server.logFile)}`);
    }
    try {
      const response = await fetch(`${server.url}/readyz`);
      if (response.ok) return server;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`server not ready within ${timeoutMs} ms:\n${tail(server.logFile)}`);
    }
    await sleep(200);
  }
}

export function tail(file: string, lines = 30): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** The pid of the embedded PostgreSQL's postmaster, from its pid file. */
export function postmasterPid(dataDir: string): number | undefined {
  try {
    const pid = Number(
      fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0],
    );
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
