import { createHash } from 'node:crypto';
import type { APIRequestContext, Locator } from '@playwright/test';
import { expect } from '@playwright/test';
import type { Rendition } from '@sticky/contracts';
import sharp from 'sharp';
import type { SharpOptions } from 'sharp';
import { e2eApiKey } from './api-key.ts';

/** RGBA of one pixel of frame `frame`, at `x`, `y`, of an animation `width` × `height`. */
type Painter = (x: number, y: number, frame: number) => [number, number, number, number];

async function encodeGif(
  width: number,
  height: number,
  frames: number,
  paint: Painter,
): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * frames * 4);
  for (let frame = 0; frame < frames; frame += 1) {
    for (let y = 0; y < height; y += 1) {
      for (let x = 0; x < width; x += 1) {
        raw.set(paint(x, y, frame), ((frame * height + y) * width + x) * 4);
      }
    }
  }
  return sharp(raw, {
    raw: { width, height: height * frames, channels: 4, pageHeight: height },
  } as SharpOptions)
    .gif({ loop: 0, delay: Array<number>(frames).fill(100) })
    .toBuffer();
}

/**
 * A GIF as video likes them: smooth colours moving over 4 s (160 × 120, 40 frames). Its MP4
 * with the still as poster is lighter than its WebP, so the grid plays it as a video
 * (docs/web.md, "Media"). `seed` gives other bytes (uploads are deduplicated).
 */
export function makeVideoFriendlyGif(seed: number): Promise<Buffer> {
  const [width, height, frames] = [160, 120, 40];
  return encodeGif(width, height, frames, (x, y, frame) => {
    const angle = (frame / frames) * 2 * Math.PI;
    const distance = Math.hypot(
      x - width / 2 - (Math.cos(angle) * width) / 4,
      y - height / 2 - (Math.sin(angle) * height) / 4,
    );
    return [
      (x * 1.6 + frame * 8 + seed) % 256,
      Math.round((y * 255) / height),
      Math.max(0, 255 - Math.round(distance * 3)),
      255,
    ];
  });
}

/**
 * A transparent sticker, 200 px square over 4.8 s: an orange disc whose bands move, on nothing.
 * Its corners are always clear and its middle always opaque. Smooth motion over a large area
 * is what VP9 codes well, so its WebM with alpha (and poster) is lighter than its WebP.
 */
export function makeStickerGif(seed: number): Promise<Buffer> {
  const [size, frames] = [200, 48];
  return encodeGif(size, size, frames, (x, y, frame) => {
    const angle = (frame / frames) * 2 * Math.PI;
    const distance = Math.hypot(
      x - size / 2 - (Math.cos(angle) * size) / 4,
      y - size / 2 - (Math.sin(angle) * size) / 4,
    );
    const isInside = distance < size / 3;
    return [
      240,
      Math.round(120 + 100 * Math.sin((x + y) / 20 + frame / 4)),
      (40 + seed) % 256,
      isInside ? 255 : 0,
    ];
  });
}

/**
 * A small animation of black and white squares drawn from the hash of `label`: another label
 * gives other bytes (uploads are deduplicated, a blocked file stays out), and two colours pass
 * the GIF palette unchanged. An 8 × 8 grid a frame; 4 frames use the hash's 256 bits.
 */
export function makeLabelledGif(label: string, size = 64, frames = 4): Promise<Buffer> {
  const hash = createHash('sha256').update(label).digest();
  const cell = size / 8;
  return encodeGif(size, size, frames, (x, y, frame) => {
    const square = Math.floor(y / cell) * 8 + Math.floor(x / cell);
    const byte = hash[(frame % 4) * 8 + Math.floor(square / 8)]!;
    const value = (byte >> (square % 8)) & 1 ? 255 : 0;
    return [value, value, value, 255];
  });
}

/** A tall, narrow GIF (40 × 200): a few of them make a grid longer than several screens. */
export function makeTallGif(seed: number): Promise<Buffer> {
  return encodeGif(40, 200, 6, (x, y, frame) => [
    (seed * 37 + frame * 40) % 256,
    (y + seed) % 256,
    (x * 6) % 256,
    255,
  ]);
}

export interface UploadFile {
  name: string;
  bytes: Buffer;
}

/**
 * Uploads files as the signed-in person of `request` (`POST /api/uploads`, docs/uploads.md) with
 * the same fields for each, waits until every one is an item, and returns the item ids in the
 * order sent.
 */
export async function uploadItems(
  request: APIRequestContext,
  files: readonly UploadFile[],
  fields: Record<string, string>,
): Promise<string[]> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files) {
    form.append('file', new Blob([new Uint8Array(file.bytes)], { type: 'image/gif' }), file.name);
  }
  const response = await request.post('/api/uploads', { multipart: form });
  expect(response.status(), await response.text()).toBe(202);
  const receipts = ((await response.json()) as { uploads: Array<{ uploadId: string | null }> })
    .uploads;
  const uploadIds = receipts.map((receipt) => receipt.uploadId);
  expect(uploadIds).not.toContain(null);
  let itemIds: Array<string | null> = [];
  await expect
    .poll(
      async () => {
        const mine = (await (await request.get('/api/uploads?limit=100')).json()) as {
          uploads: Array<{ id: string; state: string; itemId: string | null }>;
        };
        const states = uploadIds.map((id) => mine.uploads.find((entry) => entry.id === id));
        itemIds = states.map((entry) => (entry?.state === 'ready' ? entry.itemId : null));
        return states.map((entry) => entry?.state);
      },
      { timeout: 60_000 },
    )
    .toEqual(uploadIds.map(() => 'ready'));
  return itemIds as string[];
}

export interface V1Item {
  id: string;
  type: string;
  url: string;
  images: Record<string, Rendition>;
}

/** An item as GIPHY's API (our /v1) gives it to any client. */
export async function readV1Item(request: APIRequestContext, id: string): Promise<V1Item> {
  const response = await request.get(`/v1/gifs/${id}?api_key=${e2eApiKey}`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { data: V1Item }).data;
}

/** What a tile or the item page shows: its video or its image, as the browser has them. */
export interface ShownMedia {
  video: {
    src: string;
    poster: string;
    muted: boolean;
    loop: boolean;
    playsInline: boolean;
    paused: boolean;
    currentTime: number;
    videoWidth: number;
  } | null;
  image: { src: string; naturalWidth: number } | null;
}

/** The video and image inside `scope` (a tile, the item's media box). */
export function readShownMedia(scope: Locator): Promise<ShownMedia> {
  return scope.evaluate((element): ShownMedia => {
    const video = element.querySelector('video');
    const image = element.querySelector('img');
    return {
      video: video && {
        src: video.currentSrc || video.getAttribute('src') || '',
        poster: video.poster,
        muted: video.muted,
        loop: video.loop,
        playsInline: video.playsInline,
        paused: video.paused,
        currentTime: video.currentTime,
        videoWidth: video.videoWidth,
      },
      image: image && { src: image.currentSrc, naturalWidth: image.naturalWidth },
    };
  });
}

/**
 * Waits until the video in `scope` has played on by `seconds` from now, or a third of its loop
 * when that is shorter: a short loop wraps around, so its time is measured along the loop.
 */
export async function expectVideoAdvancing(scope: Locator, seconds = 0.3): Promise<void> {
  const video = scope.locator('video');
  await expect(video).toHaveCount(1);
  const read = () =>
    video.evaluate((element: HTMLVideoElement) => ({
      time: element.currentTime,
      loop: Number.isFinite(element.duration) && element.duration > 0 ? element.duration : 0,
    }));
  const start = await read();
  await expect
    .poll(
      async () => {
        const { time, loop } = await read();
        const played = time - start.time;
        return loop > 0 ? (played + loop) % loop : played;
      },
      { message: 'the video plays: its currentTime advances' },
    )
    .toBeGreaterThan(start.loop > 0 ? Math.min(seconds, start.loop / 3) : seconds);
}

/**
 * The alpha of a corner and of the middle of what `scope` shows (its video's current frame or
 * its image), drawn on a canvas: a transparent item keeps a clear corner, never a black box.
 */
export function readCornerAndMiddleAlpha(scope: Locator): Promise<[number, number]> {
  return scope.evaluate((element): [number, number] => {
    const video = element.querySelector('video');
    const image = element.querySelector('img');
    const source = video ?? image;
    if (!source) throw new Error('no media to draw');
    const width = video ? video.videoWidth : image!.naturalWidth;
    const height = video ? video.videoHeight : image!.naturalHeight;
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext('2d')!;
    context.drawImage(source, 0, 0, width, height);
    const alphaAt = (x: number, y: number) => context.getImageData(x, y, 1, 1).data[3]!;
    return [alphaAt(2, 2), alphaAt(Math.floor(width / 2), Math.floor(height / 2))];
  });
}
