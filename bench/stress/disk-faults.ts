import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { connectToEmbedded, createSignedInUsers } from './database.ts';
import { checkIntegrity } from './integrity.ts';
import { findFreePort, sleep, spawnServer, startServer, tail } from './server.ts';
import type { StressServer } from './server.ts';

function mount(args: string[]): { isOk: boolean; error: string } {
  const result = spawnSync('mount', args, { encoding: 'utf8' });
  return { isOk: result.status === 0, error: `${result.stderr}`.trim() };
}

function unmount(target: string): void {
  spawnSync('umount', [target]);
}

/** Makes `dir` read-only in place (a read-only bind mount: root ignores file modes). */
function makeReadOnly(dir: string): { isOk: boolean; error: string } {
  const bind = mount(['--bind', dir, dir]);
  if (!bind.isOk) return bind;
  const readOnly = mount(['-o', 'remount,bind,ro', dir]);
  if (!readOnly.isOk) unmount(dir);
  return readOnly;
}

async function call(
  server: StressServer,
  method: string,
  urlPath: string,
  cookie: string,
): Promise<{ status: number; message: string; ms: number }> {
  const started = performance.now();
  try {
    const response = await fetch(`${server.url}${urlPath}`, {
      method,
      headers: { cookie, origin: server.url, 'sec-fetch-site': 'same-origin' },
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    let message = '';
    try {
      const body = JSON.parse(text) as { meta?: { msg?: string }; error?: { message?: string } };
      message = body.meta?.msg ?? body.error?.message ?? '';
    } catch {
      message = text.slice(0, 120);
    }
    return { status: response.status, message, ms: Math.round(performance.now() - started) };
  } catch (error) {
    return {
      status: 0,
      message: (error as Error).message,
      ms: Math.round(performance.now() - started),
    };
  }
}

async function post(
  server: StressServer,
  urlPath: string,
  cookie: string,
  body: unknown,
): Promise<{ status: number; message: string; ms: number }> {
  const started = performance.now();
  try {
    const response = await fetch(`${server.url}${urlPath}`, {
      method: 'POST',
      headers: { cookie, origin: server.url, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const parsed = (await response.json().catch(() => ({}))) as { error?: { message?: string } };
    return {
      status: response.status,
      message: parsed.error?.message ?? '',
      ms: Math.round(performance.now() - started),
    };
  } catch (error) {
    return {
      status: 0,
      message: (error as Error).message,
      ms: Math.round(performance.now() - started),
    };
  }
}

async function favoriteIds(server: StressServer, cookie: string): Promise<string[]> {
  const response = await fetch(`${server.url}/api/favorites`, { headers: { cookie } });
  return ((await response.json()) as { ids: string[] }).ids;
}

/**
 * A read-only DATA_DIR (at start, and its media folder while running) and a full one (a
 * small tmpfs filled to the last byte): each must give a clear error and leave nothing
 * corrupted. Needs `mount` (root with CAP_SYS_ADMIN); skipped with the reason otherwise.
 */
export async function runDiskFaults(options: {
  workDir: string;
  log: (line: string) => void;
  seededDataDir: (label: string) => Promise<string>;
}) {
  const { log } = options;
  const probe = path.join(options.workDir, 'mount-probe');
  fs.mkdirSync(probe, { recursive: true });
  const canMount = makeReadOnly(probe);
  if (!canMount.isOk)
    return { skipped: `cannot mount here (${canMount.error}); run as root with CAP_SYS_ADMIN` };
  unmount(probe);

  const results: Record<string, unknown> = {};
  const problems: string[] = [];

  // A small DATA_DIR of its own: initialised, migrated, one account with favourites.
  const dataDir = path.join(options.workDir, 'disk');
  fs.mkdirSync(dataDir, { recursive: true });
  fs.chmodSync(dataDir, 0o755);
  let server = await startServer(dataDir, { SEED_STARTER_CATALOG: 'false' });
  let database = connectToEmbedded(dataDir);
  const [cookie] = (await createSignedInUsers(database, 1, 'disk')) as [string];
  await database.close();
  for (const id of ['keepA', 'keepB', 'keepC'])
    await call(server, 'PUT', `/api/favorites/${id}`, cookie);
  const warm = await call(server, 'GET', '/v1/text/animate?m=warm%20up&limit=1', cookie);
  if (warm.status !== 200)
    problems.push(`text/animate does not work to begin with: ${warm.status} ${warm.message}`);
  await server.stop();

  // 1. Read-only DATA_DIR at start: a clear error, nothing touched.
  {
    const readOnly = makeReadOnly(dataDir);
    if (!readOnly.isOk) throw new Error(`read-only mount failed: ${readOnly.error}`);
    try {
      const port = await findFreePort();
      const attempt = spawnServer(dataDir, { PORT: String(port), SEED_STARTER_CATALOG: 'false' });
      const code = await Promise.race([
        attempt.exited,
        sleep(60_000).then(() => 'timeout' as const),
      ]);
      const output = tail(attempt.logFile, 8);
      await attempt.stop();
      results.readOnlyStart = { exitCode: code, output };
      log(
        `start on a read-only DATA_DIR: exit ${code}: ${output.split('\n').filter(Boolean).at(-1)}`,
      );
      if (code === 0 || code === 'timeout')
        problems.push(`a read-only DATA_DIR did not stop the start (${code})`);
      if (
        !/read-only file system/i.test(output) ||
        !output.includes('Sticky cannot write to DATA_DIR')
      ) {
        problems.push(`no clear read-only message: ${output}`);
      }
    } finally {
      unmount(dataDir);
    }
  }

  // 2. Read-only media folder while running: renders fail clearly, reads go on.
  server = await startServer(dataDir, { SEED_STARTER_CATALOG: 'false' });
  try {
    const kept = await favoriteIds(server, cookie);
    if (['keepA', 'keepB', 'keepC'].some((id) => !kept.includes(id)))
      problems.push(`favourites lost after the read-only start: ${kept}`);
    const mediaDir = path.join(dataDir, 'media');
    const readOnly = makeReadOnly(mediaDir);
    if (!readOnly.isOk) throw new Error(`read-only mount failed: ${readOnly.error}`);
    let render;
    let read;
    try {
      render = await call(server, 'GET', '/v1/text/animate?m=read%20only%20disk&limit=1', cookie);
      read = await call(server, 'GET', '/v1/text/trending', cookie);
    } finally {
      unmount(mediaDir);
    }
    const again = await call(
      server,
      'GET',
      '/v1/text/animate?m=read%20only%20disk&limit=1',
      cookie,
    );
    results.readOnlyMedia = { render, read, afterRemount: again };
    log(
      `render on read-only media: ${render.status} "${render.message}"; read: ${read.status}; after remount: ${again.status}`,
    );
    if (render.status < 400 || render.status === 500)
      problems.push(`render on read-only media: ${render.status} ${render.message}`);
    if (read.status !== 200) problems.push(`reads failed on read-only media: ${read.status}`);
    if (again.status !== 200)
      problems.push(`render after remount: ${again.status} ${again.message}`);
    database = connectToEmbedded(dataDir);
    const integrity = await checkIntegrity(database, mediaDir);
    await database.close();
    results.readOnlyIntegrity = integrity;
    if (!integrity.isIntact) problems.push(`read-only media left: ${JSON.stringify(integrity)}`);
  } finally {
    await server.stop();
  }

  // 3. Full DATA_DIR: the same data on a tmpfs just big enough, then filled to the last byte.
  const fullDir = path.join(options.workDir, 'full');
  fs.mkdirSync(fullDir, { recursive: true });
  const usedMb = Math.ceil(
    Number(spawnSync('du', ['-sm', dataDir], { encoding: 'utf8' }).stdout.split('\t')[0]),
  );
  const tmpfs = mount(['-t', 'tmpfs', '-o', `size=${usedMb + 40}m,mode=0755`, 'tmpfs', fullDir]);
  if (!tmpfs.isOk) throw new Error(`tmpfs mount failed: ${tmpfs.error}`);
  try {
    const fullData = path.join(fullDir, 'data');
    const copy = spawnSync('cp', ['-a', dataDir, fullData]);
    if (copy.status !== 0) throw new Error(`copy to tmpfs failed: ${copy.stderr}`);
    fs.rmSync(path.join(fullData, 'sticky.pid'), { force: true });
    // Logs go elsewhere: this is about DATA_DIR being full, not the log's disk.
    server = await startServer(
      fullData,
      { SEED_STARTER_CATALOG: 'false', LOG_LEVEL: 'info' },
      { logDir: options.workDir },
    );
    try {
      const acknowledged = ['keepA', 'keepB', 'keepC'];
      // Accounts whose one-time merge of 2000 ids will push the database's own files
      // (its write-ahead log) past the end of the disk.
      const fullDatabase = connectToEmbedded(fullData);
      const mergers = await createSignedInUsers(fullDatabase, 60, 'merge');
      await fullDatabase.close();
      for (let i = 0; i < 5; i += 1) {
        const put = await call(server, 'PUT', `/api/favorites/beforeFull${i}`, cookie);
        if (put.status === 200) acknowledged.push(`beforeFull${i}`);
      }
      // Fill the disk to the last byte.
      const filler = path.join(fullData, 'filler');
      const fd = fs.openSync(filler, 'w');
      const block = Buffer.alloc(1024 * 1024, 1);
      try {
        for (;;) fs.writeSync(fd, block);
      } catch {
        for (let size = 65_536; size >= 1; size = Math.floor(size / 2)) {
          try {
            for (;;) fs.writeSync(fd, block.subarray(0, size));
          } catch {
            // smaller pieces next
          }
        }
      }
      fs.closeSync(fd);
      const whileFull: Array<{ what: string; status: number; message: string; ms: number }> = [];
      for (let i = 0; i < 40; i += 1) {
        const put = await call(server, 'PUT', `/api/favorites/whileFull${i}`, cookie);
        whileFull.push({ what: `PUT favourite ${i}`, ...put });
        if (put.status === 200) acknowledged.push(`whileFull${i}`);
      }
      const mergedBy: string[] = [];
      const mergeIds = Array.from({ length: 2000 }, (_, i) => `full${i}`);
      for (const merger of mergers) {
        const merge = await post(server, '/api/favorites/merge', merger, { ids: mergeIds });
        whileFull.push({ what: 'merge 2000', ...merge });
        if (merge.status === 200) mergedBy.push(merger);
        if (
          merge.status !== 200 &&
          whileFull.filter((e) => e.what === 'merge 2000' && e.status !== 200).length >= 5
        )
          break;
      }
      whileFull.push({
        what: 'render',
        ...(await call(server, 'GET', '/v1/text/animate?m=disk%20is%20full&limit=1', cookie)),
      });
      whileFull.push({ what: 'read', ...(await call(server, 'GET', '/v1/text/trending', cookie)) });
      whileFull.push({ what: 'readyz', ...(await call(server, 'GET', '/readyz', cookie)) });
      const statuses: Record<string, number> = {};
      for (const entry of whileFull)
        statuses[`${entry.what.replace(/ \d+$/, '')} ${entry.status}`] =
          (statuses[`${entry.what.replace(/ \d+$/, '')} ${entry.status}`] ?? 0) + 1;
      const messages = [
        ...new Set(
          whileFull
            .filter((entry) => entry.status >= 400)
            .map((entry) => `${entry.status} ${entry.message}`),
        ),
      ];
      log(`while full: ${JSON.stringify(statuses)}; messages: ${messages.join(' | ')}`);

      // Space again: the server carries on without a restart.
      fs.rmSync(filler);
      const freedAt = Date.now();
      let recoveredAfterS: number | null = null;
      while (Date.now() - freedAt < 30_000) {
        const put = await call(server, 'PUT', `/api/favorites/afterFull`, cookie);
        if (put.status === 200) {
          recoveredAfterS = (Date.now() - freedAt) / 1000;
          acknowledged.push('afterFull');
          break;
        }
        await sleep(500);
      }
      const render = await call(
        server,
        'GET',
        '/v1/text/animate?m=disk%20is%20full&limit=1',
        cookie,
      );
      const kept = await favoriteIds(server, cookie);
      const lost = acknowledged.filter((id) => !kept.includes(id));
      for (const merger of mergedBy) {
        const ids = await favoriteIds(server, merger);
        if (ids.length !== mergeIds.length)
          lost.push(`merge of ${mergeIds.length}: ${ids.length} kept`);
      }
      database = connectToEmbedded(fullData);
      const integrity = await checkIntegrity(database, path.join(fullData, 'media'));
      await database.close();
      const isServerAlive = server.process.exitCode === null;
      results.full = {
        mergesAcknowledged: mergedBy.length,
        tmpfsMb: usedMb + 40,
        statuses,
        messages,
        whileFull,
        recoveredAfterS,
        renderAfter: render,
        lost,
        integrity,
        isServerAlive,
        log: tail(server.logFile, 15),
      };
      log(
        `space back: writes work after ${recoveredAfterS} s; render ${render.status}; lost favourites: ${lost.length}; intact: ${integrity.isIntact}`,
      );
      if (whileFull.some((entry) => entry.status === 500 || entry.status === 0))
        problems.push(`unclear answers while full: ${JSON.stringify(statuses)}`);
      if (recoveredAfterS === null) problems.push('writes did not come back after freeing space');
      if (render.status !== 200)
        problems.push(`render after freeing space: ${render.status} ${render.message}`);
      if (lost.length > 0) problems.push(`acknowledged favourites lost: ${lost.join(', ')}`);
      if (!integrity.isIntact) problems.push(`full disk left: ${JSON.stringify(integrity)}`);
      if (!isServerAlive) problems.push('the server died');
    } finally {
      await server.stop();
    }
  } finally {
    unmount(fullDir);
  }

  return {
    isPassed: problems.length === 0,
    reason: problems.join('; ') || undefined,
    result: results,
  };
}
