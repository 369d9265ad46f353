import type { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import type { LatencySummary } from './stats.ts';
import { round, summarizeLatencies } from './stats.ts';

export interface LoadOptions {
  /** Origin of the server, e.g. http://localhost:1234. */
  url: string;
  /** Request paths (with query strings), cycled through by every connection. */
  paths: readonly string[];
  connections: number;
  durationSeconds: number;
  /** A discarded run first, so JIT, plan caches and the page cache are warm. */
  warmupSeconds?: number;
  /** Also receives every timed response's latency (ms), to summarise several runs as one. */
  samples?: number[];
}

export interface LoadResult {
  connections: number;
  seconds: number;
  requests: number;
  requestsPerSecond: number;
  /** Response bytes per second (headers and body). */
  bytesPerSecond: number;
  latencyMs: LatencySummary;
  /** Requests that failed (connection errors, timeouts, non-2xx): must be 0 to count. */
  failures: number;
}

// autocannon ships no types: the part of its API used here.
interface AutocannonRequest {
  method: string;
  path: string;
}

interface AutocannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
  throughput: { total: number };
}

type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  timeout: number;
  headers: Record<string, string>;
  requests: AutocannonRequest[];
  setupClient: (client: { setRequests: (requests: AutocannonRequest[]) => void }) => void;
}) => EventEmitter & PromiseLike<AutocannonResult>;

const require = createRequire(import.meta.url);
const autocannon = require('autocannon') as Autocannon;

/**
 * autocannon appends every response body to a string (`req.body += chunk`, for `onResponse`
 * and `expectBody`, neither used here). For a compressed 28 KB page that is a UTF-8 decode of
 * binary data per response: 53 % of the load generator's CPU in a profile of trending at c=32,
 * with autocannon at 100 % of a core and the server at 40 % of the other, so the figure was
 * the load generator's. Skipped: bodies are still read to the end and counted in bytes.
 */
function skipBodyStrings(): void {
  const queue = require('autocannon/lib/pipelinedRequestsQueue.js') as {
    prototype?: { addBody?: unknown };
  };
  if (typeof queue.prototype?.addBody !== 'function') {
    throw new Error(
      'autocannon no longer has PipelinedRequestsQueue#addBody: see bench/lib/load.ts',
    );
  }
  queue.prototype.addBody = () => {};
}

function rotate<T>(list: readonly T[], by: number): T[] {
  const shift = list.length === 0 ? 0 : by % list.length;
  return [...list.slice(shift), ...list.slice(0, shift)];
}

async function runOnce(options: LoadOptions, durationSeconds: number, samples?: number[]) {
  skipBodyStrings();
  const requests = options.paths.map((path) => ({ method: 'GET', path }));
  let connection = 0;
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    duration: durationSeconds,
    timeout: 30,
    // As every client of an API sends (browsers, GIPHY's SDK through fetch): answers come
    // compressed, as they would to them.
    headers: { accept: 'application/json', 'accept-encoding': 'br, gzip' },
    requests,
    // Each connection starts at another point of the mix, so they do not move in lockstep.
    setupClient: (client) => {
      client.setRequests(
        rotate(requests, Math.floor((connection++ * requests.length) / options.connections)),
      );
    },
  });
  if (samples) {
    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, ms: number) => {
      if (statusCode >= 200 && statusCode < 300) samples.push(ms);
    });
  }
  return instance;
}

/**
 * One autocannon run over a request mix on loopback. Latency percentiles come from every
 * response's own time (autocannon's summary has no p95).
 */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  if (options.warmupSeconds) await runOnce(options, options.warmupSeconds);
  const samples: number[] = [];
  const result = await runOnce(options, options.durationSeconds, samples);
  options.samples?.push(...samples);
  const seconds = result.duration;
  const ok = result['2xx'];
  return {
    connections: options.connections,
    seconds: round(seconds, 1),
    requests: ok,
    requestsPerSecond: round(ok / seconds, 1),
    bytesPerSecond: round(result.throughput.total / seconds, 0),
    latencyMs: roundSummary(summarizeLatencies(samples)),
    failures: result.errors + result.timeouts + result.non2xx,
  };
}

/**
 * Runs of the same mix taken in turns with other runs (a baseline's), as one result: requests
 * over the seconds they took, percentiles over every response.
 */
export function combineLoads(runs: ReadonlyArray<LoadResult>, samples: readonly number[]) {
  const seconds = runs.reduce((total, run) => total + run.seconds, 0);
  const requests = runs.reduce((total, run) => total + run.requests, 0);
  const bytes = runs.reduce((total, run) => total + run.bytesPerSecond * run.seconds, 0);
  return {
    connections: runs[0]?.connections ?? 0,
    seconds: round(seconds, 1),
    requests,
    requestsPerSecond: round(requests / seconds, 1),
    bytesPerSecond: round(bytes / seconds, 0),
    latencyMs: roundSummary(summarizeLatencies(samples)),
    failures: runs.reduce((total, run) => total + run.failures, 0),
  } satisfies LoadResult;
}

export function roundSummary(summary: LatencySummary): LatencySummary {
  return {
    count: summary.count,
    mean: round(summary.mean),
    p50: round(summary.p50),
    p95: round(summary.p95),
    p99: round(summary.p99),
    max: round(summary.max),
  };
}
