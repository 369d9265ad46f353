import type { ListUploadsResponse, Upload } from '@sticky/contracts';
import sharp from 'sharp';
import type { SharpOptions } from 'sharp';
import type { TestApp } from './app.ts';

export interface FormFile {
  name: string;
  bytes: Buffer;
  /** What the client claims; the server never trusts it. */
  contentType?: string;
  /** The part's field name; default `file`. */
  field?: string;
}

/** A multipart/form-data body as browsers and curl send it. */
export function buildMultipart(
  files: readonly FormFile[],
  fields: Record<string, string> = {},
  boundary = `----sticky${Math.random().toString(16).slice(2)}`,
): { body: Buffer; contentType: string } {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
    );
  }
  for (const file of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name}"\r\nContent-Type: ${file.contentType ?? 'image/gif'}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A small animation of `frames` frames, each of its own colour: every call makes new bytes. */
export async function makeAnimation(options: {
  format: 'gif' | 'webp';
  frames?: number;
  size?: number;
  /** A transparent border around each frame. */
  isTransparent?: boolean;
  seed?: number;
}): Promise<Buffer> {
  const frames = options.frames ?? 3;
  const size = options.size ?? 32;
  const seed = options.seed ?? Math.floor(Math.random() * 1_000_000);
  const raw = Buffer.alloc(size * size * frames * 4);
  for (let frame = 0; frame < frames; frame += 1) {
    for (let y = 0; y < size; y += 1) {
      for (let x = 0; x < size; x += 1) {
        const at = ((frame * size + y) * size + x) * 4;
        const isEdge = x < 4 || y < 4 || x >= size - 4 || y >= size - 4;
        raw[at] = (seed * 37 + frame * 80) % 256;
        raw[at + 1] = (seed * 11 + x * 7) % 256;
        raw[at + 2] = (seed + y * 5) % 256;
        raw[at + 3] = options.isTransparent && isEdge ? 0 : 255;
      }
    }
  }
  return sharp(raw, {
    raw: { width: size, height: size * frames, channels: 4, pageHeight: size },
  } as SharpOptions)
    .toFormat(options.format, { loop: 0, delay: Array(frames).fill(100) })
    .toBuffer();
}

/** Headers of a same-site write by a signed-in browser. */
export function sameSiteHeaders(testApp: TestApp, cookie: string): Record<string, string> {
  return {
    cookie,
    origin: new URL(testApp.config.publicUrl).origin,
    'sec-fetch-site': 'same-origin',
  };
}

/** POST /api/uploads as the web app sends it. */
export async function postUploads(
  testApp: TestApp,
  auth: Record<string, string>,
  files: readonly FormFile[],
  fields: Record<string, string> = {},
) {
  const { body, contentType } = buildMultipart(files, fields);
  return testApp.app.inject({
    method: 'POST',
    url: '/api/uploads',
    headers: { ...auth, 'content-type': contentType },
    payload: body,
  });
}

/**
 * The person's uploads once none is processing: the job queue works in the background, so
 * this polls the API as the web app does.
 */
export async function waitForUploads(
  testApp: TestApp,
  auth: Record<string, string>,
  options: { path?: string } = {},
): Promise<Upload[]> {
  for (;;) {
    const response = await testApp.app.inject({
      url: options.path ?? '/api/uploads?limit=100',
      headers: auth,
    });
    if (response.statusCode !== 200) {
      throw new Error(`GET uploads answered ${response.statusCode}: ${response.body}`);
    }
    const { uploads } = response.json() as ListUploadsResponse;
    if (uploads.every((upload) => upload.state !== 'processing')) return uploads;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
