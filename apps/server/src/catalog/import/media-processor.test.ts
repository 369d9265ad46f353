import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAnimation } from '../../test-support/media.ts';
import { encodeVideo } from './encode-video.ts';
import { hardMemoryLimitBytes } from './decoder-limits.ts';
import { MediaProcessor } from './media-processor.ts';
import { listDescendants } from './process-tree.ts';

const limits = {
  maxBytes: 10 * 1024 * 1024,
  maxPixels: 1024 * 1024,
  maxFrames: 100,
  maxDurationMs: 60_000,
};

/** `Max data size` of a process, in bytes (its RLIMIT_DATA), from /proc. */
function dataLimit(pid: number): number {
  const line = fs
    .readFileSync(`/proc/${pid}/limits`, 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('Max data size'))!;
  return Number(line.split(/\s{2,}/)[2]);
}

function environmentOf(pid: number): Record<string, string> {
  return Object.fromEntries(
    fs
      .readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .filter(Boolean)
      .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
  );
}

const secrets = {
  SESSION_SECRET: 'a-session-secret-nobody-else-may-read-0123456789',
  DATABASE_URL: 'postgres://user:password@db.example/sticky',
  GOOGLE_CLIENT_SECRET: 'google-client-secret',
};

describe('decoder and encoder processes', () => {
  let workDir: string;
  const saved: Record<string, string | undefined> = {};

  beforeAll(() => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-processor-'));
    // As in a server: secrets in the environment of the process that starts the children.
    for (const [name, value] of Object.entries(secrets)) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
  });
  afterAll(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('starts decoders with no secret in their environment and a hard memory limit', async () => {
    const maxMemoryBytes = 512 * 1024 * 1024;
    const processor = new MediaProcessor({ workers: 1, maxMemoryBytes, idleMs: 60_000 });
    try {
      const outputDir = fs.mkdtempSync(path.join(workDir, 'out-'));
      const result = await processor.process({
        bytes: await makeAnimation({ frames: 3, width: 32 }),
        limits,
        outputDir,
        isTransparent: false,
        ffmpegPath: undefined,
        phase: 'ready',
      });
      expect(result.ok ? 'ok' : result.reason).toBe('ok');
      // The idle decoder is still there: read what the kernel says about it.
      const decoders = listDescendants(process.pid).filter((pid) => {
        try {
          return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('media-worker.ts');
        } catch {
          return false;
        }
      });
      expect(decoders).toHaveLength(1);
      const environment = environmentOf(decoders[0]!);
      for (const name of Object.keys(secrets)) expect(environment[name], name).toBeUndefined();
      expect(environment.MALLOC_ARENA_MAX).toBe('2');
      // Set by the kernel, so a spike between two samples cannot run away.
      expect(dataLimit(decoders[0]!)).toBe(
        Math.ceil(hardMemoryLimitBytes(maxMemoryBytes) / 1024) * 1024,
      );
      expect(dataLimit(decoders[0]!)).toBeLessThan(2 * 1024 * 1024 * 1024);
    } finally {
      await processor.close();
    }
  });

  it('adds up the CPU time its decoders spent on files (/metrics)', async () => {
    const processor = new MediaProcessor({ workers: 1, idleMs: 60_000 });
    try {
      expect(processor.readCpuSeconds()).toBe(0);
      const result = await processor.process({
        bytes: await makeAnimation({ frames: 40, width: 320 }),
        limits: { ...limits, maxPixels: 4096 * 4096 },
        outputDir: fs.mkdtempSync(path.join(workDir, 'out-')),
        isTransparent: false,
        ffmpegPath: undefined,
        phase: 'ready',
      });
      expect(result.ok ? 'ok' : result.reason).toBe('ok');
      const spent = processor.readCpuSeconds();
      expect(spent).toBeGreaterThan(0);
      // Idle, the decoder spends nothing more on files.
      expect(processor.readCpuSeconds()).toBe(spent);
    } finally {
      await processor.close();
    }
  });

  it('gives a file back when its decoder is stopped from outside, and refuses one its decoder died on', async () => {
    const processor = new MediaProcessor({ workers: 1, idleMs: 60_000 });
    const request = (bytes: Buffer) => ({
      bytes,
      limits: { ...limits, maxPixels: 4096 * 4096 },
      outputDir: fs.mkdtempSync(path.join(workDir, 'out-')),
      isTransparent: false,
      ffmpegPath: undefined,
      phase: 'ready' as const,
    });
    const small = await makeAnimation({ frames: 3, width: 32 });
    const large = await makeAnimation({ frames: 100, width: 640 });
    const cpuTicksOf = (pid: number) => {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      // utime and stime, the 14th and 15th fields of the whole line.
      return Number(fields[11]) + Number(fields[12]);
    };
    /** Starts the large file on a started, idle decoder; `signal` reaches it mid-work. */
    const interrupt = async (signal: NodeJS.Signals) => {
      expect((await processor.process(request(small))).ok).toBe(true);
      const [decoder] = listDescendants(process.pid).filter((pid) => {
        try {
          return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('media-worker.ts');
        } catch {
          return false;
        }
      });
      const idleTicks = cpuTicksOf(decoder!);
      const working = processor.process(request(large));
      await expect.poll(() => cpuTicksOf(decoder!), { interval: 5 }).toBeGreaterThan(idleTicks + 5);
      process.kill(decoder!, signal);
      return working;
    };
    try {
      // Ctrl-C in a terminal, a service manager's stop: the job fails, to be run again.
      await expect(interrupt('SIGTERM')).rejects.toThrow('the media decoder was stopped (SIGTERM)');
      await expect(interrupt('SIGINT')).rejects.toThrow('the media decoder was stopped (SIGINT)');
      // The out-of-memory killer's signal: the file is what it was working on, refused.
      const killed = await interrupt('SIGKILL');
      expect(killed.ok ? 'ok' : killed.reason).toBe(
        'the decoder stopped unexpectedly on it (SIGKILL)',
      );
      // The processor goes on with a new decoder.
      expect((await processor.process(request(small))).ok).toBe(true);
    } finally {
      await processor.close();
    }
  });

  it('starts ffmpeg with an empty environment and a hard memory limit of its own', async () => {
    // A stand-in for ffmpeg that writes down what it was given, then fails as ffmpeg would.
    const record = path.join(workDir, 'ffmpeg-saw.txt');
    const fake = path.join(workDir, 'fake-ffmpeg.sh');
    fs.writeFileSync(
      fake,
      `#!/bin/sh\n{ env; echo "DATA_LIMIT=$(ulimit -d)"; } > ${JSON.stringify(record)}\necho 'no such codec' >&2\nexit 1\n`,
      { mode: 0o755 },
    );
    await expect(
      encodeVideo({
        ffmpegPath: fake,
        codec: 'h264',
        frames: {
          data: Buffer.alloc(4 * 4 * 4 * 2),
          width: 4,
          height: 4,
          frames: 2,
          delays: [100, 100],
        },
        outputFile: path.join(workDir, 'out.mp4'),
        memoryLimitBytes: 256 * 1024 * 1024,
      }),
    ).rejects.toThrow('ffmpeg could not encode the h264 video (no such codec)');
    const seen = fs.readFileSync(record, 'utf8');
    for (const [name, value] of Object.entries(secrets)) {
      expect(seen, name).not.toContain(value);
    }
    expect(seen).toContain(`DATA_LIMIT=${256 * 1024}`);
  });
});
