// `npm run stress`: load, faults and a long hostile-input run against real servers, each
// phase bounded in time. Results: bench/results/<date>-stress.json; summary: bench/STRESS.md.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { copyDataDir, ensureSeededTemplate } from './stress/catalog.ts';
import { connectToEmbedded, createSignedInUsers } from './stress/database.ts';
import { runDatabaseOutage } from './stress/db-outage.ts';
import { runDiskFaults } from './stress/disk-faults.ts';
import { runImportCrash } from './stress/import-crash.ts';
import { runObservatory } from './stress/observatory.ts';
import { runLoad } from './stress/load.ts';
import type { Target } from './stress/load.ts';
import { sniffImageType } from '../apps/server/src/test-support/sniff-image.ts';
import { repoRoot, startServer } from './stress/server.ts';
import type { StressServer } from './stress/server.ts';

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    connections: { type: 'string', default: '200' },
    duration: { type: 'string', default: '60' },
    'fuzz-runs': { type: 'string', default: '200' },
  },
});
const phases = new Set(
  (values.only ?? 'load,outage,import,disk,observatory,fuzz')
    .split(',')
    .map((phase) => phase.trim()),
);
const connections = Number(values.connections);
const durationS = Number(values.duration);

const startedAt = Date.now();
const log = (line: string) =>
  console.log(`[stress ${((Date.now() - startedAt) / 1000).toFixed(0).padStart(4)}s] ${line}`);
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-stress-'));
fs.chmodSync(workDir, 0o755);

interface PhaseOutcome {
  name: string;
  status: 'passed' | 'failed' | 'skipped';
  reason?: string;
  seconds: number;
  result?: unknown;
}
const outcomes: PhaseOutcome[] = [];

async function phase(
  name: string,
  run: () => Promise<{ isPassed: boolean; reason?: string; result: unknown } | { skipped: string }>,
) {
  if (!phases.has(name)) return;
  const phaseStart = Date.now();
  log(`── ${name}`);
  try {
    const outcome = await run();
    const seconds = Math.round((Date.now() - phaseStart) / 100) / 10;
    if ('skipped' in outcome) {
      log(`${name}: skipped (${outcome.skipped})`);
      outcomes.push({ name, status: 'skipped', reason: outcome.skipped, seconds });
      return;
    }
    log(`${name}: ${outcome.isPassed ? 'passed' : `FAILED: ${outcome.reason}`}`);
    outcomes.push({
      name,
      status: outcome.isPassed ? 'passed' : 'failed',
      reason: outcome.reason,
      seconds,
      result: outcome.result,
    });
  } catch (error) {
    log(`${name}: FAILED: ${(error as Error).stack ?? error}`);
    outcomes.push({
      name,
      status: 'failed',
      reason: (error as Error).message,
      seconds: Math.round((Date.now() - phaseStart) / 100) / 10,
    });
  }
}

/** What a signed-in person does most: search, trending, open an item, load media, /me. */
async function buildTargets(server: StressServer, cookie: string): Promise<Target[]> {
  const items: Array<{
    id: string;
    tags: string[];
    images: Record<string, Record<string, string>>;
  }> = [];
  for (const type of ['gifs', 'stickers']) {
    const response = await fetch(`${server.url}/v1/${type}/trending?limit=50`, {
      headers: { cookie },
    });
    if (!response.ok) throw new Error(`trending answered ${response.status}`);
    items.push(...((await response.json()) as { data: typeof items }).data);
  }
  if (items.length < 10) throw new Error(`only ${items.length} items in the catalog`);
  const ids = items.map((item) => item.id);
  const media = items.flatMap((item) =>
    ['fixed_width', 'fixed_height', 'fixed_width_still', 'preview_gif']
      .flatMap((name) => [item.images[name]?.webp, item.images[name]?.url])
      .filter((url): url is string => typeof url === 'string' && url.includes('/media/'))
      .map((url) => new URL(url).pathname),
  );
  if (media.length === 0) throw new Error('no /media URLs in the catalog');
  mediaPaths = [...new Set(media)];
  const terms = [...new Set(items.flatMap((item) => item.tags))].slice(0, 80);
  terms.push('cat', 'happy', 'dancing', 'hapy', 'celebrate', 'no-such-thing-xyz');
  const any = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;
  return [
    {
      name: 'search',
      weight: 3,
      isSignedIn: true,
      path: () =>
        `/v1/gifs/search?q=${encodeURIComponent(any(terms))}&limit=25&rating=pg-13&lang=en`,
    },
    {
      name: 'search stickers',
      weight: 1,
      isSignedIn: true,
      path: () => `/v1/stickers/search?q=${encodeURIComponent(any(terms))}&limit=25`,
    },
    {
      name: 'trending',
      weight: 2,
      isSignedIn: true,
      path: () =>
        `/v1/${any(['gifs', 'stickers', 'text'])}/trending?limit=25&offset=${any([0, 0, 25])}&rating=g`,
    },
    { name: 'item', weight: 2, isSignedIn: true, path: () => `/v1/gifs/${any(ids)}` },
    { name: 'media', weight: 4, isSignedIn: false, path: () => any(media) },
    { name: 'me', weight: 2, isSignedIn: true, path: () => '/api/auth/me' },
  ];
}

let mediaPaths: string[] = [];

/** Every media file in the mix is served with the type its bytes say it is. */
async function checkMediaTypes(server: StressServer) {
  const mismatched: string[] = [];
  for (const mediaPath of mediaPaths) {
    const response = await fetch(`${server.url}${mediaPath}`);
    const bytes = Buffer.from(await response.arrayBuffer());
    const served = response.headers.get('content-type');
    const actual = sniffImageType(bytes);
    if (response.status !== 200 || !actual || served !== actual) {
      mismatched.push(`${mediaPath}: ${response.status} served as ${served}, is ${actual}`);
    }
  }
  return { checked: mediaPaths.length, mismatched };
}

let template: string | undefined;
async function seededDataDir(label: string): Promise<string> {
  template ??= await ensureSeededTemplate(log, 60 * 60 * 1000);
  return copyDataDir(template, path.join(workDir, label));
}

await phase('load', async () => {
  const dataDir = await seededDataDir('load');
  const server = await startServer(dataDir, { SEED_STARTER_CATALOG: 'false' });
  try {
    const database = connectToEmbedded(dataDir);
    const cookies = await createSignedInUsers(database, connections, 'load');
    await database.close();
    const targets = await buildTargets(server, cookies[0]!);
    log(`${connections} clients for ${durationS} s on ${targets.map((t) => t.name).join(', ')}`);
    const mediaTypes = await checkMediaTypes(server);
    log(
      `media served as what it is: ${mediaTypes.checked - mediaTypes.mismatched.length}/${mediaTypes.checked}`,
    );
    const load = await runLoad({ url: server.url, connections, durationS, targets, cookies });
    log(
      `${load.requests} requests (${load.requestsPerSecond}/s), p50 ${load.latencyMs.p50} ms, p99 ${load.latencyMs.p99} ms, errors ${load.errors}, non-2xx ${load.non2xx}`,
    );
    const isPassed =
      load.errors === 0 &&
      load.timeouts === 0 &&
      load.non2xx === 0 &&
      mediaTypes.mismatched.length === 0;
    return {
      isPassed,
      reason: isPassed
        ? undefined
        : `errors ${load.errors}, timeouts ${load.timeouts}, non-2xx ${load.non2xx}, media type mismatches ${mediaTypes.mismatched.length}: ${JSON.stringify(load.sampleErrors).slice(0, 500)} ${mediaTypes.mismatched.slice(0, 3).join('; ')}`,
      result: { ...load, mediaTypes },
    };
  } finally {
    await server.stop();
  }
});

await phase('outage', async () => {
  const dataDir = await seededDataDir('outage');
  const server = await startServer(dataDir, { SEED_STARTER_CATALOG: 'false', LOG_LEVEL: 'info' });
  try {
    const database = connectToEmbedded(dataDir);
    const cookies = await createSignedInUsers(database, connections, 'outage');
    const writerCookies = await createSignedInUsers(database, 10, 'writer');
    await database.close();
    const targets = await buildTargets(server, cookies[0]!);
    const outageDuration = Math.min(durationS, 40);
    log(`${connections} clients for ${outageDuration} s; kill -9 of PostgreSQL at 10 s`);
    const outage = await runDatabaseOutage({
      server,
      cookies,
      writerCookies,
      targets,
      connections,
      durationS: outageDuration,
      killAtS: 10,
    });
    log(
      `killed ${outage.killedPid}; first 503 after ${outage.firstUnavailableAfterS} s; database back after ${outage.databaseBackAfterS} s; /readyz 200 after ${outage.readyzRecoveredAfterS} s; last request to get a 503 sent ${outage.clientsServedAgainAfterS} s after the kill; 503s took p50 ${outage.unavailableLatencyMs.p50} / p99 ${outage.unavailableLatencyMs.p99} ms (200s before the kill: p50 ${outage.beforeKillLatencyMs.p50} / p99 ${outage.beforeKillLatencyMs.p99} ms)`,
    );
    log(
      `favourites acknowledged: ${outage.favorites.acknowledgedBeforeKill} before, ${outage.favorites.acknowledgedAfterKill} after the kill; missing: ${outage.favorites.missingAfter.length}`,
    );
    const problems = [
      !outage.isRecoveredInTime && `not serving again within 10 s (${outage.recoveredAfterS})`,
      !outage.readyz.sawUnavailable && '/readyz never said 503',
      outage.favorites.missingAfter.length > 0 &&
        `favourites lost: ${outage.favorites.missingAfter.join(', ')}`,
      outage.unexpected.length > 0 &&
        `answers other than 200/503: ${outage.unexpected.join(' | ')}`,
      outage.unavailableLatencyMs.p50 > outage.beforeKillLatencyMs.p50 * 2 + 500 &&
        `503s were slower than answers before the kill (p50 ${outage.unavailableLatencyMs.p50} vs ${outage.beforeKillLatencyMs.p50} ms)`,
      outage.load.errors > 0 && `${outage.load.errors} requests got no answer at all`,
    ].filter(Boolean);
    return {
      isPassed: problems.length === 0,
      reason: problems.join('; ') || undefined,
      result: outage,
    };
  } finally {
    await server.stop();
  }
});

await phase('import', async () => runImportCrash({ workDir, log }));

await phase('disk', async () => runDiskFaults({ workDir, log, seededDataDir }));

await phase('observatory', async () => runObservatory({ workDir, log }));

await phase('fuzz', async () => {
  const runs = values['fuzz-runs'];
  log(`hostile input: ${runs} runs per route (vitest)`);
  const result = spawnSync(
    'npx',
    [
      'vitest',
      'run',
      '--project',
      'server',
      'apps/server/src/routes/hostile-input.test.ts',
      'apps/server/src/auth/sign-in-attacks.test.ts',
    ],
    {
      cwd: repoRoot,
      env: { ...process.env, STICKY_FUZZ_RUNS: runs },
      encoding: 'utf8',
      timeout: 20 * 60 * 1000,
    },
  );
  const output = `${result.stdout}${result.stderr}`;
  // eslint-disable-next-line no-control-regex -- strips terminal colours
  const plain = output.replace(/\u001b\[[0-9;]*m/g, '');
  const summary = /Tests\s+(.*)/.exec(plain)?.[1]?.trim();
  return {
    isPassed: result.status === 0,
    reason: result.status === 0 ? undefined : output.slice(-3000),
    result: { runsPerRoute: Number(runs), summary },
  };
});

const report = {
  date: new Date().toISOString(),
  machine: {
    cpus: os.cpus().length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
  },
  options: { connections, durationS, phases: [...phases] },
  seconds: Math.round((Date.now() - startedAt) / 1000),
  phases: outcomes,
};
const resultsDir = path.join(repoRoot, 'bench', 'results');
fs.mkdirSync(resultsDir, { recursive: true });
const resultsFile = path.join(resultsDir, `${report.date.slice(0, 10)}-stress.json`);
fs.writeFileSync(resultsFile, `${JSON.stringify(report, null, 2)}\n`);
fs.rmSync(workDir, { recursive: true, force: true });

console.log('\nStress summary');
for (const outcome of outcomes) {
  console.log(
    `  ${outcome.status.padEnd(7)} ${outcome.name} (${outcome.seconds}s)${outcome.reason && outcome.status !== 'passed' ? `: ${outcome.reason.split('\n')[0]}` : ''}`,
  );
}
const failed = outcomes.filter((outcome) => outcome.status === 'failed').length;
const passed = outcomes.filter((outcome) => outcome.status === 'passed').length;
const skipped = outcomes.filter((outcome) => outcome.status === 'skipped').length;
console.log(`\nresults: ${path.relative(repoRoot, resultsFile)}`);
console.log(`stress: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
