import type { ListUploadsResponse, Upload } from '@sticky/contracts';
import { createTestApp } from './app.ts';
import type { TestApp } from './app.ts';
import { makeAnimation as makeMediaAnimation } from './media.ts';
import type { AnimationOptions } from './media.ts';
import { startTestS3 } from './s3.ts';
import type { TestS3 } from './s3.ts';
import { signInAs } from './sign-in.ts';

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

let nextSeed = Math.floor(Math.random() * 100_000);

/**
 * A small animation (test-support/media.ts) in colours no other call of this run had: each
 * upload is new bytes, never a duplicate of another test's.
 */
export function makeAnimation(
  options: Partial<AnimationOptions> & { format: 'gif' | 'webp'; size?: number },
): Promise<Buffer> {
  const { size = 32, ...rest } = options;
  nextSeed += 1;
  return makeMediaAnimation({ frames: 3, width: size, height: size, ...rest, seed: nextSeed });
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

export interface BucketApp {
  s3: TestS3;
  testApp: TestApp;
  /** A signed-in person's same-site headers. */
  auth: Record<string, string>;
  close: () => Promise<void>;
}

/**
 * A test app with a job queue whose media live in a bucket of its own (s3rver on loopback),
 * and a person signed in to it: where the storage tests upload (docs/scaling.md, "Media
 * storage").
 */
export async function startBucketApp(env: Record<string, string> = {}): Promise<BucketApp> {
  const s3 = await startTestS3();
  const testApp = await createTestApp({ ...s3.env, ...env }, { hasJobs: true });
  const auth = sameSiteHeaders(testApp, (await signInAs(testApp)).cookie);
  return {
    s3,
    testApp,
    auth,
    close: async () => {
      await testApp.close();
      await s3.close();
    },
  };
}
