import os from 'node:os';
import { PgBoss } from 'pg-boss';
import type { Instance, Job, Queue } from 'pg-boss';
import type { DatabaseHandle } from '../db/client.ts';
import type { SqlExecutor } from '../db/transaction.ts';

/** What the queue and the job handlers log through (pino's shape). */
export interface JobLogger {
  info?: (object: object, message?: string) => void;
  warn: (object: object, message?: string) => void;
  error: (object: object, message?: string) => void;
}

export interface SendJobOptions {
  /** Send inside this transaction: the job exists exactly when the transaction commits. */
  db?: SqlExecutor;
  /** Higher first. */
  priority?: number;
}

export interface WorkOptions {
  /** Jobs of this queue this process runs at once. */
  concurrency: number;
  /** How often an idle worker looks for work (seconds, at least 0.5). */
  pollingIntervalSeconds?: number;
}

export type JobHandler<T> = (data: T, job: Job<T>) => Promise<void>;

/**
 * The durable job queue (docs/architecture.md, "Jobs"): pg-boss in the app's own PostgreSQL,
 * in the `pgboss` schema it manages. A job survives restarts and kill -9 (one that stops
 * sending heartbeats is retried), and every process started on the database shares the work.
 * Created per app, started and stopped with it.
 */
export interface JobQueue {
  start(): Promise<void>;
  /** Stops fetching, waits (up to `timeoutMs`) for running handlers, then lets go. */
  stop(options?: { timeoutMs?: number }): Promise<void>;
  /** Creates a queue once per app (pg-boss needs it before a job is sent to it). */
  createQueue(name: string, options?: Omit<Queue, 'name'>): Promise<void>;
  send<T extends object>(name: string, data: T, options?: SendJobOptions): Promise<string | null>;
  work<T extends object>(name: string, options: WorkOptions, handler: JobHandler<T>): Promise<void>;
  /** Jobs of a queue waiting to run (created, or waiting to be retried). */
  countQueued(name: string): Promise<number>;
  /**
   * Jobs of a queue not finished yet: waiting, or running in any process. A job whose process
   * died counts until its missed heartbeats send it back to waiting (about half a minute).
   */
  countUnfinished(name: string): Promise<number>;
  /** Jobs of a queue this process is running now. */
  countRunning(name: string): number;
  /**
   * Of `values`, those that a job of the queue not finished yet (waiting, or running anywhere)
   * has as `data[key]`: which of some items still have their job to come.
   */
  listUnfinishedFor(name: string, key: string, values: readonly string[]): Promise<string[]>;
  /**
   * Marks the waiting jobs of a queue whose `data[key]` is one of `values` completed: their work
   * was done in this process by other means.
   */
  completeWaitingFor(name: string, key: string, values: readonly string[]): Promise<void>;
  /**
   * Whether another live process on this database runs a worker of the queue, as pg-boss's
   * instance registry last heard from it: a process shows its workers from its first heartbeat
   * (`instanceHeartbeatSeconds`) on, and one that died stays live for three heartbeats.
   */
  hasWorkerElsewhere(name: string): Promise<boolean>;
}

/** How often each process writes its row in pg-boss's instance registry (`hasWorkerElsewhere`). */
const instanceHeartbeatSeconds = 10;

/** pg-boss's schema in the app's database, unless a test gives its app another. */
export const defaultJobSchema = 'pgboss';

/** The schema's name goes into SQL text: only a plain identifier is taken. */
export function assertSchemaName(schema: string): void {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`not a schema name: ${schema}`);
}

/** An instance of the registry that is this process (the registry has no id of our own). */
function isThisProcess(instance: Pick<Instance, 'host' | 'pid'>): boolean {
  return instance.pid === process.pid && instance.host === os.hostname();
}

/** pg-boss's statements run on the app's pool: no second set of connections to size. */
function poolExecutor(database: DatabaseHandle): SqlExecutor {
  return {
    executeSql: (text: string, values?: unknown[]) => database.pool.query(text, values),
  };
}

export function createJobQueue(deps: {
  database: DatabaseHandle;
  log?: JobLogger;
  /** pg-boss's schema; tests may give each app its own. */
  schema?: string;
  /** Seconds between this process's registry heartbeats (`instanceHeartbeatSeconds`). */
  heartbeatSeconds?: number;
}): JobQueue {
  const schema = deps.schema ?? defaultJobSchema;
  assertSchemaName(schema);
  const boss = new PgBoss({
    db: poolExecutor(deps.database),
    schema,
    // Jobs of a process that died (missed heartbeats) go back to waiting within ~20 s.
    superviseIntervalSeconds: 10,
    monitorIntervalSeconds: 10,
    // No cron schedules here; maintenance (expiring, retrying, deleting old jobs) stays on.
    schedule: false,
    // The registry tells a CLI import whether a server's workers will make its renditions
    // (docs/catalog.md, "Jobs").
    registerInstance: true,
    instanceHeartbeatSeconds: deps.heartbeatSeconds ?? instanceHeartbeatSeconds,
    openTelemetry: { enabled: false },
  });
  boss.on('error', (error) => deps.log?.error({ err: error }, 'job queue error'));
  const running = new Map<string, number>();
  const queues = new Map<string, Promise<void>>();
  let isStarted = false;

  return {
    async start() {
      if (isStarted) return;
      await boss.start();
      isStarted = true;
    },
    async stop(options = {}) {
      if (!isStarted) return;
      isStarted = false;
      await boss.stop({ graceful: true, close: true, timeout: options.timeoutMs ?? 10_000 });
    },
    createQueue(name, options) {
      let created = queues.get(name);
      if (!created) {
        created = boss.createQueue(name, options);
        queues.set(name, created);
        created.catch(() => queues.delete(name));
      }
      return created;
    },
    async send(name, data, options = {}) {
      return boss.send(name, data, {
        ...(options.db ? { db: options.db } : {}),
        ...(options.priority !== undefined ? { priority: options.priority } : {}),
      });
    },
    async work<T extends object>(name: string, options: WorkOptions, handler: JobHandler<T>) {
      await boss.work<T>(
        name,
        {
          localConcurrency: Math.max(1, options.concurrency),
          batchSize: 1,
          pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2,
        },
        async (jobs: Job<T>[]) => {
          for (const job of jobs) {
            running.set(name, (running.get(name) ?? 0) + 1);
            try {
              await handler(job.data, job);
            } finally {
              running.set(name, (running.get(name) ?? 1) - 1);
            }
          }
        },
      );
    },
    async countQueued(name) {
      const queued = await boss.findJobs(name, { queued: true, limit: 100_000 });
      return queued.length;
    },
    async countUnfinished(name) {
      // pg-boss has no call for this; its job table is plain SQL (state is an ordered enum).
      const result = await deps.database.pool.query<{ count: number }>(
        `SELECT count(*)::int AS count FROM ${schema}.job WHERE name = $1 AND state < 'completed'`,
        [name],
      );
      return result.rows[0]?.count ?? 0;
    },
    countRunning(name) {
      return running.get(name) ?? 0;
    },
    async listUnfinishedFor(name, key, values) {
      if (values.length === 0) return [];
      // As countUnfinished: pg-boss finds jobs by data one value at a time only.
      const result = await deps.database.pool.query<{ value: string }>(
        `SELECT DISTINCT data->>$2 AS value FROM ${schema}.job
         WHERE name = $1 AND state < 'completed' AND data->>$2 = ANY($3::text[])`,
        [name, key, values],
      );
      return result.rows.map((row) => row.value);
    },
    async completeWaitingFor(name, key, values) {
      if (values.length === 0) return;
      const waiting = await deps.database.pool.query<{ id: string }>(
        `SELECT id FROM ${schema}.job
         WHERE name = $1 AND state IN ('created', 'retry') AND data->>$2 = ANY($3::text[])`,
        [name, key, values],
      );
      if (waiting.rows.length === 0) return;
      const ids = waiting.rows.map((row) => row.id);
      await boss.complete(name, ids, null, { includeQueued: true });
    },
    async hasWorkerElsewhere(name) {
      let after: string | undefined;
      for (;;) {
        const page = await boss.getInstances({ limit: 1000, ...(after ? { after } : {}) });
        const isWorking = page.some(
          (instance) =>
            instance.live &&
            !isThisProcess(instance) &&
            instance.workers.some((worker) => worker.queue === name),
        );
        if (isWorking) return true;
        if (page.length < 1000) return false;
        after = page.at(-1)!.id;
      }
    },
  };
}
