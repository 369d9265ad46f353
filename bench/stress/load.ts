import { createRequire } from 'node:module';

/** The part of autocannon's result this uses (the package ships no types). */
interface AutocannonResult {
  requests: { total: number; average: number };
  latency: { p50: number; p90: number; p99: number; max: number; mean: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodeStats?: Record<string, { count: number }>;
}

const autocannon = createRequire(import.meta.url)('autocannon') as (
  options: Record<string, unknown>,
) => Promise<AutocannonResult>;

/** One kind of request in the mix; `weight` is its share. */
export interface Target {
  name: string;
  weight: number;
  /** A path per call (random query, item, file…). */
  path: () => string;
  /** Sends the signed-in cookie. */
  isSignedIn: boolean;
}

export interface RouteStats {
  count: number;
  statuses: Record<string, number>;
  p50: number;
  p99: number;
  max: number;
}

export interface LoadResult {
  connections: number;
  durationS: number;
  requests: number;
  requestsPerSecond: number;
  /** Socket errors and timeouts (no HTTP answer at all). */
  errors: number;
  timeouts: number;
  non2xx: number;
  statuses: Record<string, number>;
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  byRoute: Record<string, RouteStats>;
  /** Error bodies seen, first few per status, to say what went wrong. */
  sampleErrors: Record<string, string[]>;
}

export interface LoadOptions {
  url: string;
  connections: number;
  durationS: number;
  targets: Target[];
  cookies: string[];
  /** Called for every answer: for phases that watch a timeline. */
  onAnswer?: (answer: {
    name: string;
    status: number;
    ms: number;
    body: string;
    at: number;
  }) => void;
  timeoutS?: number;
}

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
}

const round = (value: number) => Math.round(value * 10) / 10;

/**
 * `connections` clients for `durationS` seconds on a weighted mix, with autocannon. Each
 * request takes the next signed-in account in turn, so per-account limits see many people.
 */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const total = options.targets.reduce((sum, target) => sum + target.weight, 0);
  const pick = () => {
    let roll = Math.random() * total;
    for (const target of options.targets) {
      roll -= target.weight;
      if (roll < 0) return target;
    }
    return options.targets[0]!;
  };
  let nextCookie = 0;
  const times = new Map<string, number[]>();
  const byRouteStatuses = new Map<string, Record<string, number>>();
  const sampleErrors: Record<string, string[]> = {};

  interface Context {
    name?: string;
    startedAt?: number;
  }

  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationS,
    // A browser waits this long too; the server gives up on a request after 30 s itself.
    timeout: options.timeoutS ?? 30,
    requests: [
      {
        method: 'GET',
        setupRequest: (request: Record<string, unknown>, context: Context) => {
          const target = pick();
          context.name = target.name;
          context.startedAt = performance.now();
          const headers: Record<string, string> = { accept: 'application/json' };
          if (target.isSignedIn && options.cookies.length > 0) {
            headers.cookie = options.cookies[nextCookie++ % options.cookies.length]!;
          }
          return { ...request, path: target.path(), headers };
        },
        onResponse: (status: number, body: string, context: Context) => {
          const name = context.name ?? 'unknown';
          const ms = performance.now() - (context.startedAt ?? performance.now());
          let list = times.get(name);
          if (!list) times.set(name, (list = []));
          list.push(ms);
          const statuses = byRouteStatuses.get(name) ?? {};
          statuses[status] = (statuses[status] ?? 0) + 1;
          byRouteStatuses.set(name, statuses);
          if (status >= 300) {
            const samples = (sampleErrors[`${name} ${status}`] ??= []);
            if (samples.length < 3) samples.push(String(body).slice(0, 300));
          }
          options.onAnswer?.({ name, status, ms, body: String(body), at: Date.now() });
        },
      },
    ],
  });
  const result = await instance;

  const byRoute: Record<string, RouteStats> = {};
  for (const [name, list] of times) {
    const sorted = [...list].sort((a, b) => a - b);
    byRoute[name] = {
      count: sorted.length,
      statuses: byRouteStatuses.get(name) ?? {},
      p50: round(percentile(sorted, 0.5)),
      p99: round(percentile(sorted, 0.99)),
      max: round(sorted.at(-1) ?? 0),
    };
  }
  const statuses: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) {
    statuses[code] = stat.count;
  }
  return {
    connections: options.connections,
    durationS: options.durationS,
    requests: result.requests.total,
    requestsPerSecond: round(result.requests.average),
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statuses,
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
      mean: round(result.latency.mean),
    },
    byRoute,
    sampleErrors,
  };
}
