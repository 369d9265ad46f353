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
      processor
        .process({
          bytes,
          limits,
          outputDir: fs.mkdtempSync(path.join(workDir, `${name}-`)),
          isTransparent: false,
          ffmpegPath: resolveFfmpegPath(),
          ...request,
        })
        .then((result) => {
          expect(result.ok, name).toBe(true);
          finished.push(name);
        });
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
