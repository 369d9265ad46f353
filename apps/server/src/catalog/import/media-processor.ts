import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { formatBytes } from '@sticky/contracts';
import {
  buildWorkerEnv,
  cpuAllowanceMs,
  hardMemoryLimitBytes,
  PHASE_CPU_FACTOR,
} from './decoder-limits.ts';
import type { ImportLimits, MediaInfo } from './inspect-media.ts';
import { killTree, readTreeUsage } from './process-tree.ts';
import type { RenderedFile } from './render-renditions.ts';
import type { RenderPhase } from './rendition-plan.ts';
import type { WorkerMessage, WorkerTask } from './media-worker.ts';

export interface ProcessorOptions {
  /** Child processes working in parallel (IMPORT_WORKERS). */
  workers: number;
  /** CPU time any file may use: a hostile one is stopped after this. */
  baseCpuMs?: number;
  /** Extra CPU time for a validated file of so many decoded pixels (default cpuAllowanceMs). */
  cpuAllowance?: (pixels: number) => number;
  /** Wall-clock time allowed, as a multiple of the CPU budget (the machine may be busy). */
  wallFactor?: number;
  /**
   * A decoder (with its encoders) using more memory than this is killed and the file rejected.
   * It is sampled every 100 ms; a hard limit (RLIMIT_DATA, hardMemoryLimitBytes) stops a
   * spike between two samples.
   */
  maxMemoryBytes?: number;
  /** Children exit after this long without work; the next file starts a new one. */
  idleMs?: number;
  /**
   * For this long after a `high` request arrives, `low` ones take every decoder but one
   * (default 30 s; see `takeNext`).
   */
  urgentHoldMs?: number;
}

export interface ProcessRequest {
  bytes: Uint8Array;
  limits: ImportLimits;
  outputDir: string;
  /**
   * Stickers and animated text: transparency kept, WebM instead of MP4. `auto`: when the file
   * has a transparent pixel (an upload of no given type; the result says what was chosen).
   */
  isTransparent: boolean | 'auto';
  ffmpegPath: string | undefined;
  /** Which renditions (rendition-plan.ts); default every one. */
  phase?: RenderPhase;
  /** Renditions the item has (`name.format`): not made again. */
  existing?: string[];
  /**
   * `low` waits while any `high` request is queued, and while `high` ones keep arriving leaves
   * one decoder free for them: renditions made later (the job queue) never hold up an import
   * someone is waiting for.
   */
  priority?: 'high' | 'low';
}

export type ProcessResult =
  | { ok: true; info: MediaInfo; files: RenderedFile[]; isTransparent: boolean }
  | { ok: false; reason: string };

interface Job {
  id: number;
  request: ProcessRequest;
  resolve: (result: ProcessResult) => void;
  reject: (error: Error) => void;
}

interface Slot {
  child: ChildProcess | undefined;
  isReady: boolean;
  job: Job | undefined;
  startedAt: number;
  cpuAtStart: number;
  /** The child's CPU time when last read, kept for a child killed before its end is read. */
  cpuLastRead: number;
  cpuBudgetMs: number;
  watch: NodeJS.Timeout | undefined;
  idleTimer: NodeJS.Timeout | undefined;
}

/**
 * Run from the production build (`apps/server/dist/bin/*.js`), the worker is the build's own
 * `media-worker.js` beside it, plain JavaScript; from the sources (dev, tests) it is the `.ts`
 * file beside this one, through tsx (docs/operations.md, "Production build").
 */
const isCompiled = import.meta.url.endsWith('.js');
const workerFile = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  isCompiled ? 'media-worker.js' : 'media-worker.ts',
);

function readWorkerLoaderArgs(): string[] {
  if (isCompiled) return [];
  return ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href];
}

/**
 * Signals that stop a decoder from outside, never something a file can cause: a terminal's
 * Ctrl-C reaches the whole process group, a service manager's stop (systemd's) every process of
 * the service. The job is given back as an error, so the upload or rendition job runs again;
 * a crash (SIGSEGV, SIGABRT…), SIGKILL (the kernel's out-of-memory killer) or an exit refuses
 * the file (docs/uploads.md, "Processing that survives anything").
 */
const stopSignals: ReadonlySet<NodeJS.Signals> = new Set([
  'SIGINT',
  'SIGTERM',
  'SIGHUP',
  'SIGQUIT',
]);

/**
 * A small pool of child processes that decode and render media. Each file gets a CPU-time
 * budget (10 s, plus an allowance for big animations that passed validation), a wall-clock
 * budget and a memory ceiling; a child that overruns one is killed (SIGKILL) and replaced, so
 * a hostile file can neither hang nor exhaust the process that imports it. A libvips crash
 * costs the child, never the server.
 */
export class MediaProcessor {
  private readonly slots: Slot[];
  /** Waiting requests; `high` ones are taken first, each kind in order. */
  private readonly queue: Job[] = [];
  private nextId = 1;
  private isClosed = false;
  private readonly baseCpuMs: number;
  private readonly wallFactor: number;
  private readonly cpuAllowance: (pixels: number) => number;
  private readonly maxMemoryBytes: number;
  private readonly idleMs: number;
  private readonly urgentHoldMs: number;
  /** When the last `high` request arrived (performance.now()); -Infinity before any. */
  private lastUrgentAt = Number.NEGATIVE_INFINITY;
  /** CPU time the children used on finished requests (/metrics: docs/operations.md). */
  private finishedCpuMs = 0;

  constructor(options: ProcessorOptions) {
    this.slots = Array.from({ length: Math.max(1, options.workers) }, () => ({
      child: undefined,
      isReady: false,
      job: undefined,
      startedAt: 0,
      cpuAtStart: 0,
      cpuLastRead: 0,
      cpuBudgetMs: 0,
      watch: undefined,
      idleTimer: undefined,
    }));
    this.baseCpuMs = options.baseCpuMs ?? 10_000;
    this.wallFactor = options.wallFactor ?? 6;
    this.cpuAllowance = options.cpuAllowance ?? cpuAllowanceMs;
    this.maxMemoryBytes = options.maxMemoryBytes ?? 2048 * 1024 * 1024;
    this.idleMs = options.idleMs ?? 15_000;
    this.urgentHoldMs = options.urgentHoldMs ?? 30_000;
  }

  get workers(): number {
    return this.slots.length;
  }

  /** CPU seconds the children used on requests so far, those under way up to their last check. */
  readCpuSeconds(): number {
    const running = this.slots.reduce(
      (sum, slot) => sum + (slot.job ? Math.max(0, slot.cpuLastRead - slot.cpuAtStart) : 0),
      0,
    );
    return (this.finishedCpuMs + running) / 1000;
  }

  process(request: ProcessRequest): Promise<ProcessResult> {
    if (this.isClosed) return Promise.reject(new Error('the media processor is closed'));
    if (request.priority !== 'low') this.lastUrgentAt = performance.now();
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, request, resolve, reject });
      this.dispatch();
    });
  }

  /** Stops every child; queued work is refused. */
  async close(): Promise<void> {
    this.isClosed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('the media processor closed'));
    await Promise.all(
      this.slots.map(async (slot) => {
        // Not the file's fault: its job runs again (on another server, or at the next start).
        if (slot.job) this.finish(slot, undefined, new Error('the media processor closed'));
        await this.stopChild(slot);
      }),
    );
  }

  /**
   * Whether people are waiting on the decoders: a `high` request queued or running, or one
   * arrived within the hold. Background readers (the caption job) wait while it is so.
   */
  hasUrgentWork(): boolean {
    return (
      this.countRunning('high') > 0 ||
      this.queue.some((job) => job.request.priority !== 'low') ||
      performance.now() - this.lastUrgentAt < this.urgentHoldMs
    );
  }

  /** Decoders working on a request now; of one priority only when given. */
  countRunning(priority?: 'high' | 'low'): number {
    return this.slots.filter(
      (slot) =>
        slot.job !== undefined &&
        (priority === undefined || (slot.job.request.priority ?? 'high') === priority),
    ).length;
  }

  /**
   * The next request to start: the first `high` one, else the first `low` one, unless `high`
   * requests arrived lately and `low` ones already hold every decoder but one
   * (docs/uploads.md, "Processing"). Uploads come one job at a time, with gaps between them
   * while the job queue hands out the next: without the hold, later renditions took both
   * decoders in such a gap and the next upload waited for one of them to finish. Holding is
   * only ever done beside a running `low` request, whose end dispatches again, so nothing
   * waits forever; once `high` requests stop, `low` ones use every decoder again.
   */
  private takeNext(): Job | undefined {
    const urgent = this.queue.findIndex((job) => job.request.priority !== 'low');
    if (urgent !== -1) return this.queue.splice(urgent, 1)[0];
    const isUrgentRecent = performance.now() - this.lastUrgentAt < this.urgentHoldMs;
    if (isUrgentRecent && this.slots.length > 1) {
      if (this.countRunning('low') >= this.slots.length - 1) return undefined;
    }
    return this.queue.shift();
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (slot.job) continue;
      const next = this.takeNext();
      if (!next) return;
      slot.job = next;
      clearTimeout(slot.idleTimer);
      if (slot.child?.connected && slot.isReady) this.start(slot);
      else if (!slot.child) this.spawn(slot);
      // else: a child is starting; it takes the job when it says it is ready.
    }
  }

  private spawn(slot: Slot): void {
    const cpus = Math.max(1, os.availableParallelism());
    const hardLimitKb = Math.ceil(hardMemoryLimitBytes(this.maxMemoryBytes) / 1024);
    // A shell sets the hard limit and execs Node in its place (same pid, same IPC channel).
    const child = spawn(
      '/bin/sh',
      [
        '-c',
        `ulimit -d ${hardLimitKb} && exec "$@"`,
        'sh',
        process.execPath,
        ...readWorkerLoaderArgs(),
        workerFile,
      ],
      {
        serialization: 'advanced',
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        env: buildWorkerEnv(process.env, {
          // glibc keeps per-thread arenas around; two are plenty for one file at a time.
          MALLOC_ARENA_MAX: '2',
          STICKY_SHARP_CONCURRENCY: String(Math.max(1, Math.floor(cpus / this.slots.length))),
        }),
      },
    );
    slot.child = child;
    slot.isReady = false;
    child.on('message', (message: WorkerMessage) => this.onMessage(slot, child, message));
    child.on('exit', (code, signal) => this.onExit(slot, child, code, signal));
    child.on('error', () => {});
  }

  private start(slot: Slot): void {
    const child = slot.child!;
    const job = slot.job!;
    child.ref();
    (child.channel as { ref?: () => void } | undefined)?.ref?.();
    slot.startedAt = Date.now();
    slot.cpuAtStart = (child.pid && readTreeUsage(child.pid)?.cpuMs) || 0;
    slot.cpuLastRead = slot.cpuAtStart;
    slot.cpuBudgetMs = this.baseCpuMs;
    slot.watch = setInterval(() => this.check(slot), 100);
    const { priority: _priority, phase, ...request } = job.request;
    const task: WorkerTask = {
      id: job.id,
      ...request,
      phase: phase ?? 'all',
      videoMemoryBytes: Math.min(1024 * 1024 * 1024, this.maxMemoryBytes),
    };
    child.send(task, (error) => {
      if (error && slot.job === job)
        this.abort(slot, `the decoder process failed (${error.message})`);
    });
  }

  /** Enforces the budgets of the file a child is working on. */
  private check(slot: Slot): void {
    const child = slot.child;
    if (!child || !slot.job) return;
    const usage = child.pid ? readTreeUsage(child.pid) : undefined;
    if (usage) slot.cpuLastRead = usage.cpuMs;
    const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
    if (usage && usage.cpuMs - slot.cpuAtStart > slot.cpuBudgetMs) {
      this.abort(slot, `decoding it took more than ${seconds(slot.cpuBudgetMs)} of CPU time`);
    } else if (usage && usage.rssBytes > this.maxMemoryBytes) {
      this.abort(
        slot,
        `decoding it needed more than ${formatBytes(this.maxMemoryBytes)} of memory`,
      );
    } else if (Date.now() - slot.startedAt > slot.cpuBudgetMs * this.wallFactor) {
      this.abort(
        slot,
        `processing took longer than ${seconds(slot.cpuBudgetMs * this.wallFactor)}`,
      );
    }
  }

  private onMessage(slot: Slot, child: ChildProcess, message: WorkerMessage): void {
    if (slot.child !== child) return;
    if (message.kind === 'ready') {
      slot.isReady = true;
      if (slot.job) this.start(slot);
      else this.idle(slot);
      return;
    }
    const job = slot.job;
    if (!job || message.id !== job.id) return;
    switch (message.kind) {
      case 'inspected': {
        const { width, height, frames } = message.info;
        const factor = PHASE_CPU_FACTOR[job.request.phase ?? 'all'];
        slot.cpuBudgetMs = this.baseCpuMs + factor * this.cpuAllowance(width * height * frames);
        return;
      }
      case 'rendered':
        this.finish(slot, {
          ok: true,
          info: message.info,
          files: message.files,
          isTransparent: message.isTransparent,
        });
        return;
      case 'rejected':
        this.finish(slot, { ok: false, reason: message.reason });
        return;
      case 'failed':
        this.finish(slot, undefined, new Error(message.message));
        return;
    }
  }

  private onExit(
    slot: Slot,
    child: ChildProcess,
    code: number | null,
    signal: NodeJS.Signals | null,
  ): void {
    if (slot.child !== child) return;
    slot.child = undefined;
    slot.isReady = false;
    const job = slot.job;
    if (!job) return;
    if (slot.watch === undefined) {
      // It died before taking the job: a broken installation, not a bad file.
      slot.job = undefined;
      job.reject(new Error(`the media decoder process could not start (${signal ?? code})`));
      this.dispatch();
      return;
    }
    if (signal && stopSignals.has(signal)) {
      this.finish(slot, undefined, new Error(`the media decoder was stopped (${signal})`));
      return;
    }
    this.finish(slot, {
      ok: false,
      reason: `the decoder stopped unexpectedly on it (${signal ?? `exit code ${code}`})`,
    });
  }

  /** Kills the child working on a file and rejects the file with a reason. */
  private abort(slot: Slot, reason: string): void {
    const child = slot.child;
    slot.child = undefined;
    slot.isReady = false;
    killTree(child?.pid);
    this.finish(slot, { ok: false, reason });
  }

  private finish(slot: Slot, result: ProcessResult | undefined, error?: Error): void {
    const job = slot.job;
    if (job && slot.watch !== undefined) {
      // A killed child's last check stands in for its end (abort cleared slot.child first).
      const usage = slot.child?.pid ? readTreeUsage(slot.child.pid) : undefined;
      this.finishedCpuMs += Math.max(0, (usage?.cpuMs ?? slot.cpuLastRead) - slot.cpuAtStart);
    }
    clearInterval(slot.watch);
    slot.watch = undefined;
    slot.job = undefined;
    if (job) {
      if (result) job.resolve(result);
      else job.reject(error ?? new Error('media processing failed'));
    }
    this.idle(slot);
    this.dispatch();
  }

  /** An idle child must not keep the process alive, and exits after a while. */
  private idle(slot: Slot): void {
    if (slot.job || !slot.child) return;
    const child = slot.child;
    child.unref();
    (child.channel as { unref?: () => void } | undefined)?.unref?.();
    clearTimeout(slot.idleTimer);
    slot.idleTimer = setTimeout(() => {
      if (slot.child === child && !slot.job) void this.stopChild(slot);
    }, this.idleMs);
    slot.idleTimer.unref();
  }

  private async stopChild(slot: Slot): Promise<void> {
    clearTimeout(slot.idleTimer);
    const child = slot.child;
    slot.child = undefined;
    slot.isReady = false;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      if (child.connected) child.disconnect();
      // A child stuck in native code ignores the disconnect.
      setTimeout(() => killTree(child.pid), 2_000).unref();
    });
  }
}
