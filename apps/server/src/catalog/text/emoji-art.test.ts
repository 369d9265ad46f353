import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { findEmojiArtByName, splitTopLevel } from './emoji-art.ts';

const run = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));

describe('Noto emoji art', () => {
  it('splits markup into its top-level elements', () => {
    expect(splitTopLevel('<a/><g x="1"><b/><c></c></g><d>text</d>')).toEqual([
      '<a/>',
      '<g x="1"><b/><c></c></g>',
      '<d>text</d>',
    ]);
  });

  it('drops the stray shapes some SVGs keep far outside their box', () => {
    const flag = findEmojiArtByName('rainbow-flag')!;
    const box = new Resvg(
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 128 128">${flag.body}</svg>`,
    ).getBBox()!;
    expect(box.x).toBeGreaterThanOrEqual(-32);
    expect(box.y).toBeGreaterThanOrEqual(-32);
    expect(box.x + box.width).toBeLessThanOrEqual(160);
    // The flag itself is all still there.
    expect(box.width).toBeGreaterThan(100);
    expect(findEmojiArtByName('grinning-face')!.body).toContain('<path');
  });

  it('draws every emoji, even half off the canvas, without taking the process down', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', path.join(here, 'every-emoji.check.ts')],
      { timeout: 120_000 },
    );
    expect(stdout).toMatch(/^drew \d{4} emoji/);
  }, 130_000);
});
