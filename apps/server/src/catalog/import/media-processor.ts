import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ImportLimits, MediaInfo } from './inspect-media.ts';
import type { RenderedFile } from './render-renditions.ts';
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
  /** A decoder using more memory than this is killed and the file rejected. */
  maxMemoryBytes?: number;
  /** Children exit after this long without work; the next file starts a new one. */
  idleMs?: number;
}

export interface ProcessRequest {
  bytes: Uint8Array;
  limits: ImportLimits;
  outputDir: string;
  isSticker: boolean;
  ffmpegPath: string | undefined;
}

export type ProcessResult =
  { ok: true; info: MediaInfo; files: RenderedFile[] } | { ok: false; reason: string };

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
  cpuBudgetMs: number;
  watch: NodeJS.Timeout | undefined;
  idleTimer: NodeJS.Timeout | undefined;
}

const workerFile = path.join(path.dirname(fileURLToPath(import.meta.url)), 'media-worker.ts');
/** Linux reports process CPU time in clock ticks of 1/100 s. */
const TICK_MS = 10;

function tsxLoaderUrl(): string {
  return pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
}

/** CPU time (user + system, all threads) and resident memory of a process, from /proc. */
export function readProcessUsage(pid: number): { cpuMs: number; rssBytes: number } | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may contain spaces: fields are counted after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cpuMs = (Number(fields[11]) + Number(fields[12])) * TICK_MS;
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const rssBytes = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
    return Number.isFinite(cpuMs) && Number.isFinite(rssBytes) ? { cpuMs, rssBytes } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Extra CPU time for a file that passed validation, from its decoded pixels (width × height ×
 * frames), so a long but legitimate animation is not cut short. Measured here: small animations
 * cost up to about 1 s per million pixels (GIF's palette quantiser dominates), long screen
 * recordings about 0.04 s (repeated frames are merged first); this allows a good margin over both.
 */
export function cpuAllowanceMs(pixels: number): number {
  const megapixels = pixels / 1e6;
  return Math.ceil(1500 * Math.min(megapixels, 10) + 150 * Math.max(0, megapixels - 10));
}

/**
 * A small pool of child processes that decode and render media. Each file gets a CPU-time
 * budget (10 s, plus an allowance for big animations that passed validation), a wall-clock
 * budget and a memory ceiling; a child that overruns one is killed (SIGKILL) and replaced, so
 * a hostile file can neither hang nor exhaust the process that imports it. A libvips crash
 * costs the child, never the server.
 */
export class MediaProcessor {
  private readonly slots: Slot[];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private isClosed = false;
  private readonly baseCpuMs: number;
  private readonly wallFactor: number;
  private readonly cpuAllowance: (pixels: number) => number;
  private readonly maxMemoryBytes: number;
  private readonly idleMs: number;

  constructor(options: ProcessorOptions) {
    this.slots = Array.from({ length: Math.max(1, options.workers) }, () => ({
      child: undefined,
      isReady: false,
      job: undefined,
      startedAt: 0,
      cpuAtStart: 0,
      cpuBudgetMs: 0,
      watch: undefined,
      idleTimer: undefined,
    }));
    this.baseCpuMs = options.baseCpuMs ?? 10_000;
    this.wallFactor = options.wallFactor ?? 6;
    this.cpuAllowance = options.cpuAllowance ?? cpuAllowanceMs;
    this.maxMemoryBytes = options.maxMemoryBytes ?? 2048 * 1024 * 1024;
    this.idleMs = options.idleMs ?? 15_000;
  }

  get workers(): number {
    return this.slots.length;
  }

  process(request: ProcessRequest): Promise<ProcessResult> {
    if (this.isClosed) return Promise.reject(new Error('the media processor is closed'));
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
        if (slot.job) this.finish(slot, { ok: false, reason: 'the import was stopped' });
        await this.stopChild(slot);
      }),
    );
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (slot.job) continue;
      slot.job = this.queue.shift()!;
      clearTimeout(slot.idleTimer);
      if (slot.child?.connected && slot.isReady) this.start(slot);
      else if (!slot.child) this.spawn(slot);
      // else: a child is starting; it takes the job when it says it is ready.
    }
  }

  private spawn(slot: Slot): void {
    const cpus = Math.max(1, os.availableParallelism());
    const child = fork(workerFile, [], {
      execArgv: ['--import', tsxLoaderUrl()],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: {
        ...process.env,
        // glibc keeps per-thread arenas around; two are plenty for one file at a time.
        MALLOC_ARENA_MAX: '2',
        STICKY_SHARP_CONCURRENCY: String(Math.max(1, Math.floor(cpus / this.slots.length))),
      },
    });
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
    slot.cpuAtStart = (child.pid && readProcessUsage(child.pid)?.cpuMs) || 0;
    slot.cpuBudgetMs = this.baseCpuMs;
    slot.watch = setInterval(() => this.check(slot), 100);
    const task: WorkerTask = { id: job.id, ...job.request };
    child.send(task, (error) => {
      if (error && slot.job === job)
        this.abort(slot, `the decoder process failed (${error.message})`);
    });
  }

  /** Enforces the budgets of the file a child is working on. */
  private check(slot: Slot): void {
    const child = slot.child;
    if (!child || !slot.job) return;
    const usage = child.pid ? readProcessUsage(child.pid) : undefined;
    const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
    if (usage && usage.cpuMs - slot.cpuAtStart > slot.cpuBudgetMs) {
      this.abort(slot, `decoding it took more than ${seconds(slot.cpuBudgetMs)} of CPU time`);
    } else if (usage && usage.rssBytes > this.maxMemoryBytes) {
      const megabytes = Math.round(this.maxMemoryBytes / (1024 * 1024));
      this.abort(slot, `decoding it needed more than ${megabytes} MB of memory`);
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
        slot.cpuBudgetMs = this.baseCpuMs + this.cpuAllowance(width * height * frames);
        return;
      }
      case 'rendered':
        this.finish(slot, { ok: true, info: message.info, files: message.files });
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
    child?.kill('SIGKILL');
    this.finish(slot, { ok: false, reason });
  }

  private finish(slot: Slot, result: ProcessResult | undefined, error?: Error): void {
    const job = slot.job;
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
      setTimeout(() => child.kill('SIGKILL'), 2_000).unref();
    });
  }
}

const shared = new Map<number, MediaProcessor>();

/** One processor per worker count, shared by every import in this process. */
export function getMediaProcessor(workers: number): MediaProcessor {
  let processor = shared.get(workers);
  if (!processor) {
    processor = new MediaProcessor({ workers });
    shared.set(workers, processor);
  }
  return processor;
}

/** Stops the shared processors' children (tests and shutdown). */
export async function closeMediaProcessors(): Promise<void> {
  const all = [...shared.values()];
  shared.clear();
  await Promise.all(all.map((processor) => processor.close()));
}
