import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAnimation } from '../../test-support/media.ts';
import { resolveFfmpegPath } from './encode-video.ts';
import { MediaProcessor } from './media-processor.ts';
import type { ProcessRequest } from './media-processor.ts';

const limits = {
  maxBytes: 10 * 1024 * 1024,
  maxPixels: 1024 * 1024,
  maxFrames: 100,
  maxDurationMs: 60_000,
};

/** One file of `bytes` asked of `processor`; its name joins `finished` when it is made. */
function askProcessor(
  processor: MediaProcessor,
  file: { bytes: Uint8Array; workDir: string; name: string; finished: string[] },
  request: Pick<ProcessRequest, 'phase' | 'priority'>,
): Promise<void> {
  return processor
    .process({
      bytes: file.bytes,
      limits,
      outputDir: fs.mkdtempSync(path.join(file.workDir, `${file.name}-`)),
      isTransparent: false,
      ffmpegPath: resolveFfmpegPath(),
      ...request,
    })
    .then((result) => {
      expect(result.ok, file.name).toBe(true);
      file.finished.push(file.name);
    });
}

/**
 * docs/uploads.md, "Processing": the renditions the grid shows (an upload's or an import's
 * `ready` tier, priority `high`) are made before later renditions waiting in the decoder
 * processes (the job queue's, priority `low`), whatever order they were asked in.
 */
describe('the decoder pool’s order', () => {
  let workDir: string;
  let processor: MediaProcessor;

  beforeAll(() => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-priority-'));
    // One decoder: what waits is taken strictly one at a time.
    processor = new MediaProcessor({ workers: 1 });
  });
  afterAll(async () => {
    await processor.close();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('makes an upload’s grid renditions before the later renditions waiting ahead of it', async () => {
    const bytes = await makeAnimation({ format: 'gif', frames: 4, width: 64, seed: 7 });
    const finished: string[] = [];
    const ask = (name: string, request: Pick<ProcessRequest, 'phase' | 'priority'>) =>
      askProcessor(processor, { bytes, workDir, name, finished }, request);
    // As the job queue asks (later-renditions.ts): the first is taken at once, two wait.
    const later = ['later 1', 'later 2', 'later 3'].map((name) =>
      ask(name, { phase: 'later', priority: 'low' }),
    );
    // Then an upload arrives (import-media.ts).
    const upload = ask('upload', { phase: 'ready', priority: 'high' });
    await Promise.all([...later, upload]);
    expect(finished).toEqual(['later 1', 'upload', 'later 2', 'later 3']);
  });
});

describe('the decoder pool’s room for uploads', () => {
  let workDir: string;
  let bytes: Uint8Array;

  beforeAll(async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-hold-'));
    bytes = await makeAnimation({ format: 'gif', frames: 4, width: 64, seed: 11 });
  });
  afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

  const ask = (
    processor: MediaProcessor,
    name: string,
    finished: string[],
    request: Pick<ProcessRequest, 'phase' | 'priority'>,
  ) => askProcessor(processor, { bytes, workDir, name, finished }, request);

  it('keeps a decoder free for the next upload while uploads keep coming', async () => {
    const processor = new MediaProcessor({ workers: 2, urgentHoldMs: 60_000 });
    try {
      const finished: string[] = [];
      await ask(processor, 'upload 1', finished, { phase: 'ready', priority: 'high' });
      // The first upload's later renditions, and others', queued in the gap before the next.
      const later = ['later 1', 'later 2', 'later 3'].map((name) =>
        ask(processor, name, finished, { phase: 'later', priority: 'low' }),
      );
      expect(processor.countRunning('low')).toBe(1);
      // Which of two running files ends first depends on the machine's load, so the test
      // watches how many decoders later renditions hold, not the order files end in.
      let mostLowRunning = processor.countRunning('low');
      const watch = setInterval(() => {
        mostLowRunning = Math.max(mostLowRunning, processor.countRunning('low'));
      }, 2);
      const upload = ask(processor, 'upload 2', finished, { phase: 'ready', priority: 'high' });
      // Started at once, beside the later renditions, not after one of them.
      expect(processor.countRunning('high')).toBe(1);
      await Promise.all([...later, upload]);
      clearInterval(watch);
      expect(finished).toHaveLength(5);
      // The hold outlasts the test: later renditions never took the upload's decoder.
      expect(mostLowRunning).toBe(1);
    } finally {
      await processor.close();
    }
  });

  it('gives later renditions every decoder once uploads stopped coming', async () => {
    const processor = new MediaProcessor({ workers: 2, urgentHoldMs: 50 });
    try {
      const finished: string[] = [];
      await ask(processor, 'upload', finished, { phase: 'ready', priority: 'high' });
      await new Promise((resolve) => setTimeout(resolve, 100));
      const later = ['later 1', 'later 2', 'later 3'].map((name) =>
        ask(processor, name, finished, { phase: 'later', priority: 'low' }),
      );
      expect(processor.countRunning('low')).toBe(2);
      await Promise.all(later);
      expect(finished).toHaveLength(4);
    } finally {
      await processor.close();
    }
  });
});
