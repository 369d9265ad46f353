import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gifPlan } from '../starter/gif-plan.ts';
import { starterSizes } from '../starter/plan.ts';
import { renderScene } from '../starter/scenes.ts';
import { createCaptionReader } from './caption-reader.ts';
import type { CaptionReader } from './caption-reader.ts';

/**
 * Share of the starter's caption words the reader finds (the plan is the ground truth): 0.63
 * measured on the 36 captioned GIFs (bench/notes.md, "Captions"); the floor sits a bit below.
 */
const recallFloor = 0.55;

const wordsOf = (text: string): string[] => text.toLowerCase().match(/[a-z]+/g) ?? [];

describe('caption reader', () => {
  let reader: CaptionReader;
  const blocked: Array<() => void> = [];

  beforeAll(() => {
    // The reader never reaches out: every way out of this process throws (the engine's model
    // and code come from node_modules).
    const refuse = () => {
      throw new Error('the caption reader tried to reach the network');
    };
    const saved = {
      fetch: globalThis.fetch,
      httpRequest: http.request,
      httpGet: http.get,
      httpsRequest: https.request,
      httpsGet: https.get,
      connect: net.connect,
    };
    globalThis.fetch = refuse as typeof fetch;
    http.request = refuse as typeof http.request;
    http.get = refuse as typeof http.get;
    https.request = refuse as typeof https.request;
    https.get = refuse as typeof https.get;
    blocked.push(() => {
      globalThis.fetch = saved.fetch;
      http.request = saved.httpRequest;
      http.get = saved.httpGet;
      https.request = saved.httpsRequest;
      https.get = saved.httpsGet;
    });
    reader = createCaptionReader();
  });
  afterAll(async () => {
    await reader?.close();
    for (const restore of blocked) restore();
  });

  it('reads the starter GIFs’ captions, above the stated floor, with the network cut', async () => {
    let expected = 0;
    let found = 0;
    let noise = 0;
    for (const entry of gifPlan.filter((plan) => plan.caption)) {
      const gif = await renderScene(entry, { ...starterSizes.gif, format: 'gif' });
      const { caption } = await reader.read(gif);
      const want = wordsOf(entry.caption!);
      const got = wordsOf(caption);
      expected += want.length;
      found += want.filter((word) => got.includes(word)).length;
      noise += got.filter((word) => !want.includes(word)).length;
    }
    expect(found / expected).toBeGreaterThanOrEqual(recallFloor);
    // Words read that are not there stay rare (misread letters of a real word count here).
    expect(noise / expected).toBeLessThan(0.25);
  }, 180_000);

  it('gives an image without text an empty caption', async () => {
    const plain = gifPlan.filter((plan) => !plan.caption).slice(0, 6);
    for (const entry of plain) {
      const gif = await renderScene(entry, { ...starterSizes.gif, format: 'gif' });
      expect((await reader.read(gif)).caption, entry.title).toBe('');
    }
  }, 120_000);
});
