import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../db/embedded.ts';
import { TestBrowser } from '../test-support/browser.ts';
import { createTestDatabase } from '../test-support/database.ts';
import type { TestDatabase } from '../test-support/database.ts';
import { makeAnimation } from '../test-support/media.ts';
import { reachCallback } from '../test-support/oidc.ts';
import { repoRoot } from '../test-support/processes.ts';
import { buildMultipart } from '../test-support/uploads.ts';

/**
 * The container image as an operator runs it (docs/operations.md, "Container image"): built
 * from the Dockerfile, started beside a PostgreSQL (the test run's, on the host's loopback, the
 * container on the host's network), signed in to through the local issuer, given a GIF, and
 * asked for it back. `npm run test:container`; minutes, so not in `npm test`.
 */
const engine = process.env.CONTAINER_ENGINE ?? findEngine();
const registryBase = 'docker.io/library/debian:bookworm-slim';
const localBase = 'localhost/sticky-base:bookworm';
const image = 'localhost/sticky:check';
const logDir = path.join(repoRoot, '.tmp');

function findEngine(): string {
  for (const name of ['podman', 'docker']) {
    if (spawnSync(name, ['version'], { stdio: 'ignore' }).status === 0) return name;
  }
  throw new Error('Neither podman nor docker (with an engine) answers: apt-get install -y podman');
}

/** Runs a command with its output in .tmp/<log>; throws with the output's end when it fails. */
function run(args: string[], log: string, options: { cwd?: string; timeoutMs?: number } = {}) {
  fs.mkdirSync(logDir, { recursive: true });
  const logFile = path.join(logDir, log);
  const result = spawnSync(args[0]!, args.slice(1), {
    cwd: options.cwd ?? repoRoot,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    timeout: options.timeoutMs ?? 1_500_000,
  });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  fs.writeFileSync(logFile, output);
  if (result.status !== 0) {
    throw new Error(
      `${args.join(' ')} failed (${result.status ?? result.signal}); ${logFile} ends with:\n${output.slice(-3000)}`,
    );
  }
  return result.stdout.trim();
}

/** Debian 12 from a registry when one answers, else made from Debian's packages. */
function readBaseImage(): string {
  if (process.env.BASE_IMAGE) return process.env.BASE_IMAGE;
  const pulled = spawnSync(engine, ['pull', registryBase], { stdio: 'ignore', timeout: 60_000 });
  if (pulled.status === 0) return registryBase;
  if (spawnSync(engine, ['image', 'inspect', localBase], { stdio: 'ignore' }).status !== 0) {
    run(['scripts/container/build-base-image.sh'], 'container-base.log', {
      timeoutMs: 1_200_000,
    });
  }
  return localBase;
}

/**
 * The certificate authorities this machine added (Debian keeps them in
 * /usr/local/share/ca-certificates: a TLS-inspecting proxy's) go to the build stage, which
 * fetches from the npm registry through the same network (scripts/container/extra-ca).
 */
function copyLocalAuthorities(): void {
  const from = '/usr/local/share/ca-certificates';
  const to = path.join(repoRoot, 'scripts/container/extra-ca');
  if (!fs.existsSync(from)) return;
  for (const file of fs.readdirSync(from).filter((name) => name.endsWith('.crt'))) {
    fs.copyFileSync(path.join(from, file), path.join(to, file));
  }
}

describe('the container image', () => {
  let database: TestDatabase;
  let name: string | undefined;
  let url: string;

  beforeAll(async () => {
    const baseImage = readBaseImage();
    copyLocalAuthorities();
    run(
      [
        engine,
        'build',
        // HEALTHCHECK is Docker's image format; podman's default (OCI) drops it with a warning.
        ...(engine.endsWith('podman') ? ['--format', 'docker'] : []),
        '--build-arg',
        `BASE_IMAGE=${baseImage}`,
        '--target',
        'runtime',
        '--tag',
        image,
        '.',
      ],
      'container-build.log',
    );
    database = await createTestDatabase();
    const port = await findFreePort();
    url = `http://localhost:${port}`;
    name = `sticky-check-${randomBytes(4).toString('hex')}`;
    // The host's network: PostgreSQL and the sign-in stay on loopback, where the local issuer
    // is offered without LOCAL_SIGN_IN.
    run(
      [
        engine,
        'run',
        '--detach',
        '--rm',
        '--name',
        name,
        '--network',
        'host',
        '--env',
        'NODE_ENV=development',
        '--env',
        `DATABASE_URL=${database.url}`,
        '--env',
        'HOST=127.0.0.1',
        '--env',
        `PORT=${port}`,
        '--env',
        `PUBLIC_URL=${url}`,
        '--env',
        'SEED_STARTER_CATALOG=false',
        '--env',
        'LOG_LEVEL=warn',
        image,
      ],
      'container-run.log',
    );
    // A plain loop: expect.poll belongs to tests, not hooks.
    const deadline = Date.now() + 180_000;
    while ((await fetch(`${url}/readyz`).catch(() => undefined))?.status !== 200) {
      if (Date.now() > deadline) throw new Error(`${image} was not ready in 3 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  });

  afterAll(async () => {
    if (name) {
      const logs = spawnSync(engine, ['logs', name], { encoding: 'utf8' });
      fs.writeFileSync(path.join(logDir, 'container-logs.log'), `${logs.stdout}${logs.stderr}`);
      spawnSync(engine, ['rm', '--force', name], { stdio: 'ignore' });
    }
    await database?.destroy();
  });

  it('runs the built JavaScript as a user other than root, and its health check passes', () => {
    expect(run([engine, 'exec', name!, 'id', '-un'], 'container-exec.log')).toBe('sticky');
    const command = run([engine, 'exec', name!, 'cat', '/proc/1/cmdline'], 'container-exec.log');
    expect(command.split('\0').filter(Boolean)).toEqual(['node', 'apps/server/dist/bin/main.js']);
    // No build tools and no dev dependencies in the runtime stage.
    const tools = spawnSync(engine, ['exec', name!, 'sh', '-c', 'command -v npm gcc tsx vite'], {
      encoding: 'utf8',
    });
    expect(tools.stdout.trim()).toBe('');
    const modules = run([engine, 'exec', name!, 'ls', '/app/node_modules'], 'container-exec.log');
    expect(modules.split('\n')).not.toContain('vite');
    expect(modules.split('\n')).toContain('fastify');
    if (engine.endsWith('podman')) {
      run([engine, 'healthcheck', 'run', name!], 'container-health.log');
    }
  });

  it('signs a person in through the local issuer, takes their GIF and serves it', async () => {
    const browser = new TestBrowser();
    const callbackUrl = await reachCallback(browser, `${url}/api/auth/googleAuth`, {
      name: 'Container Check',
      email: 'container@example.com',
    });
    await browser.request(callbackUrl);
    expect((await browser.request(`${url}/api/auth/me`)).status).toBe(200);
    const cookie = await browser.jar.getCookieString(url);

    const gif = await makeAnimation({ frames: 6, width: 64 });
    const form = buildMultipart([{ name: 'wave.gif', bytes: gif }], { tags: 'container' });
    const sent = await fetch(`${url}/api/uploads`, {
      method: 'POST',
      headers: { cookie, 'content-type': form.contentType },
      body: form.body,
    });
    expect(sent.status).toBe(202);

    const readUpload = async () => {
      const answer = await fetch(`${url}/api/uploads`, { headers: { cookie } });
      const body = (await answer.json()) as {
        uploads: { state: string; previewUrl: string | null; itemId: string | null }[];
      };
      return body.uploads[0];
    };
    await expect.poll(async () => (await readUpload())?.state, { timeout: 120_000 }).toBe('ready');
    const upload = (await readUpload())!;
    expect(upload.previewUrl).not.toBeNull();
    const media = await fetch(new URL(upload.previewUrl!, url));
    expect(media.status).toBe(200);
    expect(media.headers.get('content-type')).toMatch(/^(image|video)\//);
    expect((await media.arrayBuffer()).byteLength).toBeGreaterThan(0);
  }, 180_000);
});
