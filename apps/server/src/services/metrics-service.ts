import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { readStorageBytes } from '../catalog/storage-usage.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { readJobQueueStats } from '../jobs/queue-stats.ts';

/** Seconds; from a fast kept answer to a slow cold page (docs/operations.md, "Metrics"). */
const latencyBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The storage sum reads every rendition: one scrape a minute reads it at most once. */
const storageBytesMaxAgeMs = 60_000;

export interface MetricsDeps {
  database: DatabaseHandle;
  /** CPU seconds the decoder processes have used so far (catalog/import/media-processor.ts). */
  readDecoderCpuSeconds: () => number;
  /** pg-boss's schema (jobs/job-queue.ts). */
  jobSchema?: string;
  now?: () => number;
}

/**
 * One app's Prometheus metrics (docs/operations.md, "Metrics"): a registry of its own rather than
 * prom-client's global one, which would be module-level state shared by every app of a process
 * (docs/architecture.md, "Services per app"). Gauges that cost a query (queue depth, storage) are
 * read when scraped, never on a timer.
 */
export interface AppMetrics {
  registry: Registry;
  /** Counts one answered request under its route pattern, never its URL (plugins/http-metrics.ts). */
  observeRequest: (
    labels: { method: string; route: string; status: number },
    seconds: number,
  ) => void;
  /** Times a catalog query (`search`, `related`) that was not answered from what is kept. */
  timeQuery: <T>(query: 'search' | 'related', run: () => Promise<T>) => Promise<T>;
  /** A kept-answer cache's lookup counter (catalog/query/versioned-cache.ts, `onLookup`). */
  countLookupsOf: (cache: string) => (isHit: boolean) => void;
  /** One uploaded file accepted, or refused with a reason (an error code or the receipt's). */
  countUpload: (outcome: 'accepted' | 'duplicate' | 'refused', reason?: string) => void;
  /** The text Prometheus scrapes. */
  render: () => Promise<string>;
  contentType: string;
  close: () => void;
}

export function createAppMetrics(deps: MetricsDeps): AppMetrics {
  const now = deps.now ?? Date.now;
  const registry = new Registry();
  const registers = [registry];

  const requestDuration = new Histogram({
    name: 'sticky_http_request_duration_seconds',
    help: 'Time to answer a request, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: latencyBuckets,
    registers,
  });
  const requests = new Counter({
    name: 'sticky_http_requests_total',
    help: 'Requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers,
  });
  const queryDuration = new Histogram({
    name: 'sticky_catalog_query_duration_seconds',
    help: 'Time to make a search or related page that was not kept (ranking, items and JSON).',
    labelNames: ['query'] as const,
    buckets: latencyBuckets,
    registers,
  });
  const lookups = new Counter({
    name: 'sticky_kept_answer_lookups_total',
    help: 'Lookups of kept answers by cache, hit or miss: hits / (hits + misses) is the hit ratio.',
    labelNames: ['cache', 'result'] as const,
    registers,
  });
  const uploads = new Counter({
    name: 'sticky_uploads_total',
    help: 'Uploaded files accepted, answered as a duplicate, or refused (by reason).',
    labelNames: ['outcome', 'reason'] as const,
    registers,
  });

  let countedCpuSeconds = 0;
  new Counter({
    name: 'sticky_decoder_cpu_seconds_total',
    help: 'CPU seconds used by the decoder processes (media-processor.ts) while working on files.',
    registers,
    collect() {
      const total = deps.readDecoderCpuSeconds();
      if (total > countedCpuSeconds) this.inc(total - countedCpuSeconds);
      countedCpuSeconds = Math.max(countedCpuSeconds, total);
    },
  });

  const { pool } = deps.database;
  new Gauge({
    name: 'sticky_db_pool_connections',
    help: 'Connections of the database pool: total open, idle, and requests waiting for one.',
    labelNames: ['state'] as const,
    registers,
    collect() {
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });

  let storage: { bytes: number; readAt: number } | undefined;
  new Gauge({
    name: 'sticky_storage_bytes',
    help: 'Bytes of the media files the catalog refers to (each file once), read at most once a minute.',
    registers,
    async collect() {
      if (!storage || now() - storage.readAt > storageBytesMaxAgeMs) {
        storage = { bytes: await readStorageBytes(deps.database), readAt: now() };
      }
      this.set(storage.bytes);
    },
  });

  // Two gauges fed by one query per scrape.
  const queueDepth = new Gauge({
    name: 'sticky_job_queue_depth',
    help: 'Jobs not finished, by queue and state (created, retry, active).',
    labelNames: ['queue', 'state'] as const,
    registers,
  });
  new Gauge({
    name: 'sticky_job_queue_oldest_age_seconds',
    help: 'Age of the oldest job not finished, by queue (0 when none waits).',
    labelNames: ['queue'] as const,
    registers,
    async collect() {
      const stats = await readJobQueueStats(deps.database, deps.jobSchema ?? 'pgboss');
      queueDepth.reset();
      this.reset();
      const oldest = new Map<string, number>();
      for (const row of stats) {
        queueDepth.set({ queue: row.queue, state: row.state }, row.count);
        oldest.set(row.queue, Math.max(oldest.get(row.queue) ?? 0, row.oldestAgeSeconds));
      }
      for (const [queue, seconds] of oldest) this.set({ queue }, seconds);
    },
  });

  // perf_hooks' histogram of event-loop delays, reset after each scrape so a scrape shows the
  // interval since the last one; disabled when the app closes.
  const loopDelay = monitorEventLoopDelay({ resolution: 20 });
  loopDelay.enable();
  new Gauge({
    name: 'sticky_event_loop_delay_seconds',
    help: 'Event-loop delay since the last scrape: p50, p99 and max.',
    labelNames: ['quantile'] as const,
    registers,
    collect() {
      const seconds = (nanoseconds: number) =>
        Number.isFinite(nanoseconds) ? nanoseconds / 1e9 : 0;
      this.set({ quantile: '0.5' }, seconds(loopDelay.percentile(50)));
      this.set({ quantile: '0.99' }, seconds(loopDelay.percentile(99)));
      this.set({ quantile: '1' }, seconds(loopDelay.max));
      loopDelay.reset();
    },
  });
  new Gauge({
    name: 'sticky_process_resident_memory_bytes',
    help: 'Resident memory of the server process.',
    registers,
    collect() {
      this.set(process.memoryUsage.rss());
    },
  });

  return {
    registry,
    observeRequest: (labels, seconds) => {
      const values = { ...labels, status: String(labels.status) };
      requests.inc(values);
      requestDuration.observe(values, seconds);
    },
    timeQuery: async (query, run) => {
      const end = queryDuration.startTimer({ query });
      try {
        return await run();
      } finally {
        end();
      }
    },
    countLookupsOf: (cache) => (isHit) => lookups.inc({ cache, result: isHit ? 'hit' : 'miss' }),
    countUpload: (outcome, reason = '') => uploads.inc({ outcome, reason }),
    render: () => registry.metrics(),
    contentType: registry.contentType,
    close: () => {
      loopDelay.disable();
      registry.clear();
    },
  };
}
