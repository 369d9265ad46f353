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
  /** Time allowed for any file: a hostile one is stopped after this. */
  baseTimeoutMs?: number;
  /**
   * Extra time per million decoded pixels (width × height × frames), granted once a file has
   * passed validation, so a long but legitimate animation is not cut short.
   */
  msPerMegapixel?: number;
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
  job: Job | undefined;
  deadline: NodeJS.Timeout | undefined;
  memoryWatch: NodeJS.Timeout | undefined;
  idleTimer: NodeJS.Timeout | undefined;
}

const workerFile = path.join(path.dirname(fileURLToPath(import.meta.url)), 'media-worker.ts');

function tsxLoaderUrl(): string {
  return pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
}

/** Resident memory of a process in bytes (Linux); undefined where /proc is not available. */
function residentBytes(pid: number): number | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /VmRSS:\s+(\d+) kB/.exec(status);
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A small pool of child processes that decode and render media. Each file gets a deadline
 * and a memory ceiling; a child that overruns either is killed (SIGKILL) and replaced, so a
 * hostile file can neither hang nor exhaust the process that imports it.
 */
export class MediaProcessor {
  private readonly slots: Slot[];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private isClosed = false;
  private readonly baseTimeoutMs: number;
  private readonly msPerMegapixel: number;
  private readonly maxMemoryBytes: number;
  private readonly idleMs: number;

  constructor(private readonly options: ProcessorOptions) {
    this.slots = Array.from({ length: Math.max(1, options.workers) }, () => ({
      child: undefined,
      job: undefined,
      deadline: undefined,
      memoryWatch: undefined,
      idleTimer: undefined,
    }));
    this.baseTimeoutMs = options.baseTimeoutMs ?? 10_000;
    this.msPerMegapixel = options.msPerMegapixel ?? 40;
    this.maxMemoryBytes = options.maxMemoryBytes ?? 1536 * 1024 * 1024;
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
      this.start(slot, this.queue.shift()!);
    }
  }

  private spawn(slot: Slot): ChildProcess {
    const cpus = Math.max(1, os.availableParallelism());
    const child = fork(workerFile, [], {
      execArgv: ['--import', tsxLoaderUrl()],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: {
        ...process.env,
        // glibc keeps per-thread arenas around; two is plenty for one file at a time.
        MALLOC_ARENA_MAX: '2',
        STICKY_SHARP_CONCURRENCY: String(Math.max(1, Math.floor(cpus / this.slots.length))),
      },
    });
    child.on('message', (message: WorkerMessage) => this.onMessage(slot, child, message));
    child.on('exit', (code, signal) => this.onExit(slot, child, code, signal));
    child.on('error', () => {});
    slot.child = child;
    return child;
  }

  private start(slot: Slot, job: Job): void {
    clearTimeout(slot.idleTimer);
    slot.job = job;
    const child = slot.child && slot.child.connected ? slot.child : this.spawn(slot);
    child.ref();
    (child.channel as { ref?: () => void } | undefined)?.ref?.();
    this.armDeadline(slot, this.baseTimeoutMs);
    slot.memoryWatch = setInterval(() => {
      const used = child.pid ? residentBytes(child.pid) : undefined;
      if (used !== undefined && used > this.maxMemoryBytes) {
        this.abort(
          slot,
          `decoding it needed more than ${Math.round(this.maxMemoryBytes / (1024 * 1024))} MB of memory`,
        );
      }
    }, 200);
    const task: WorkerTask = { id: job.id, ...job.request };
    child.send(task, (error) => {
      if (error && slot.job === job)
        this.abort(slot, `the decoder process failed (${error.message})`);
    });
  }

  private armDeadline(slot: Slot, ms: number): void {
    clearTimeout(slot.deadline);
    slot.deadline = setTimeout(() => {
      this.abort(slot, `processing took longer than ${Math.round(ms / 1000)} s and was stopped`);
    }, ms);
  }

  private onMessage(slot: Slot, child: ChildProcess, message: WorkerMessage): void {
    const job = slot.job;
    if (slot.child !== child || !job || message.id !== job.id) return;
    switch (message.kind) {
      case 'inspected': {
        const megapixels = (message.info.width * message.info.height * message.info.frames) / 1e6;
        this.armDeadline(slot, this.baseTimeoutMs + Math.ceil(megapixels * this.msPerMegapixel));
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
    if (slot.job) {
      this.finish(slot, {
        ok: false,
        reason: `the decoder stopped unexpectedly (${signal ?? `exit code ${code}`})`,
      });
    }
  }

  /** Kills the child working on a file and rejects the file with a reason. */
  private abort(slot: Slot, reason: string): void {
    const child = slot.child;
    slot.child = undefined;
    child?.kill('SIGKILL');
    this.finish(slot, { ok: false, reason });
  }

  private finish(slot: Slot, result: ProcessResult | undefined, error?: Error): void {
    const job = slot.job;
    clearTimeout(slot.deadline);
    clearInterval(slot.memoryWatch);
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
