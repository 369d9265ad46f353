import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { AppConfig } from '../config/env.ts';
import { StartupError } from '../lib/startup-error.ts';
import { isContentAddressedPath, mediaContentTypes, resolveMediaPath } from './media-paths.ts';

/** A stored file's body, whole or a byte range of it. */
export interface StoredObject {
  body: Readable;
  /** The whole file's size. */
  size: number;
  /** The range sent, when one was asked and fits. */
  range?: { start: number; end: number };
}

/**
 * Where media files live (docs/scaling.md, "Media storage"): the local disk (DATA_DIR/media,
 * the default) or an S3-compatible bucket. Keys are the content-addressed paths media-paths.ts
 * makes (`ab/cd/<sha256>.<ext>`), so every write is idempotent: a key's content never changes.
 * Files are made in a local staging folder first and handed over with `put`.
 */
export interface MediaStore {
  readonly kind: 'local' | 's3';
  /** Answers, or throws an Error saying what is wrong (a start-up check; StartupError for S3). */
  check(): Promise<void>;
  /** Stores a staged file under its key; false when the key was there already (kept as is). */
  put(key: string, stagedFile: string): Promise<boolean>;
  has(key: string): Promise<boolean>;
  /** The whole file, or undefined when there is none. */
  read(key: string): Promise<Buffer | undefined>;
  /** A byte range (inclusive) or the whole file; undefined when there is none. */
  open(key: string, range?: { start?: number; end?: number }): Promise<StoredObject | undefined>;
  remove(key: string): Promise<void>;
  /** Every content-addressed key the store holds (orphan sweeps, migration). */
  list(): AsyncIterable<string>;
  /** Lets go of connections. */
  close(): void;
}

async function syncDirectory(directory: string): Promise<void> {
  const handle = await fsp.open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The local disk: today's layout under DATA_DIR/media, files moved in by rename. */
export function createLocalMediaStore(mediaDir: string): MediaStore {
  const fileOf = (key: string) => resolveMediaPath(mediaDir, key);
  const exists = async (file: string) => {
    try {
      await fsp.lstat(file);
      return true;
    } catch {
      return false;
    }
  };
  return {
    kind: 'local',
    async check() {
      await fsp.mkdir(mediaDir, { recursive: true });
      await fsp.access(mediaDir, fs.constants.W_OK);
    },
    async put(key, stagedFile) {
      const target = fileOf(key);
      if (await exists(target)) {
        await fsp.rm(stagedFile, { force: true });
        return false;
      }
      await fsp.mkdir(path.dirname(target), { recursive: true });
      // Staging is inside mediaDir (same file system): a rename, atomic and durable once the
      // directory is flushed.
      await fsp.rename(stagedFile, target);
      await syncDirectory(path.dirname(target));
      return true;
    },
    has: (key) => exists(fileOf(key)),
    async read(key) {
      try {
        return await fsp.readFile(fileOf(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async open(key, range) {
      const file = fileOf(key);
      const stat = await fsp.stat(file).catch(() => undefined);
      if (!stat) return undefined;
      const bounds = resolveRange(stat.size, range);
      return {
        body: fs.createReadStream(file, bounds ? { start: bounds.start, end: bounds.end } : {}),
        size: stat.size,
        ...(bounds ? { range: bounds } : {}),
      };
    },
    async remove(key) {
      await fsp.rm(fileOf(key), { force: true });
    },
    async *list() {
      const hex2 = /^[0-9a-f]{2}$/;
      const level1 = await fsp.readdir(mediaDir, { withFileTypes: true }).catch(() => []);
      for (const first of level1) {
        if (!first.isDirectory() || !hex2.test(first.name)) continue;
        const level2 = await fsp.readdir(path.join(mediaDir, first.name), { withFileTypes: true });
        for (const second of level2) {
          if (!second.isDirectory() || !hex2.test(second.name)) continue;
          const directory = path.join(mediaDir, first.name, second.name);
          for (const entry of await fsp.readdir(directory, { withFileTypes: true })) {
            const key = `${first.name}/${second.name}/${entry.name}`;
            if (entry.isFile() && isContentAddressedPath(key)) yield key;
          }
        }
      }
    },
    close() {},
  };
}

/** A range asked for, made to fit the file; undefined for the whole file or one that cannot fit. */
export function resolveRange(
  size: number,
  range: { start?: number; end?: number } | undefined,
): { start: number; end: number } | undefined {
  if (!range || (range.start === undefined && range.end === undefined)) return undefined;
  if (range.start === undefined) {
    // `bytes=-n`: the last n bytes.
    const length = Math.min(range.end ?? 0, size);
    return length > 0 ? { start: size - length, end: size - 1 } : undefined;
  }
  if (range.start >= size) return undefined;
  return { start: range.start, end: Math.min(range.end ?? size - 1, size - 1) };
}

function isMissing(error: unknown): boolean {
  const name = (error as { name?: string })?.name;
  const status = (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
  return name === 'NotFound' || name === 'NoSuchKey' || status === 404;
}

function describeS3Error(error: unknown): string {
  const name = (error as { name?: string })?.name ?? 'Error';
  const status = (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
  const message = (error as Error)?.message ?? String(error);
  if (status === 404 || name === 'NotFound' || name === 'NoSuchBucket')
    return 'the bucket does not exist';
  if (status === 403 || name === 'Forbidden' || name === 'InvalidAccessKeyId') {
    return 'the access key is refused (check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY)';
  }
  if (/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT/.test(message)) {
    return `nothing answers there (${message.split('\n')[0]})`;
  }
  return `${name}: ${message.split('\n')[0]}`;
}

/** An S3-compatible bucket (AWS S3, MinIO, Garage, Cloudflare R2…), through AWS's SDK v3. */
export function createS3MediaStore(
  settings: Extract<AppConfig['storage'], { kind: 's3' }>,
): MediaStore {
  const client = new S3Client({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    forcePathStyle: settings.forcePathStyle,
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
    // A bucket that stops answering must not hold a request (or an import) forever.
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
    maxAttempts: 3,
  });
  const Bucket = settings.bucket;
  const where = `S3 bucket ${JSON.stringify(Bucket)}${settings.endpoint ? ` at ${settings.endpoint}` : ''}`;
  const has = async (key: string) => {
    try {
      await client.send(new HeadObjectCommand({ Bucket, Key: key }));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  };
  return {
    kind: 's3',
    async check() {
      try {
        await client.send(new HeadBucketCommand({ Bucket }));
      } catch (error) {
        throw new StartupError(`${where} cannot be used: ${describeS3Error(error)}`, {
          cause: error,
        });
      }
    },
    async put(key, stagedFile) {
      if (await has(key)) {
        await fsp.rm(stagedFile, { force: true });
        return false;
      }
      const extension = path.extname(key).slice(1);
      // lib-storage sends large files in parts, small ones in one request.
      await new Upload({
        client,
        params: {
          Bucket,
          Key: key,
          Body: fs.createReadStream(stagedFile),
          ContentType: mediaContentTypes[extension] ?? 'application/octet-stream',
          CacheControl: 'public, max-age=31536000, immutable',
        },
      }).done();
      await fsp.rm(stagedFile, { force: true });
      return true;
    },
    has,
    async read(key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        return Buffer.from(await object.Body!.transformToByteArray());
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
    async open(key, range) {
      let size: number;
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        size = head.ContentLength ?? 0;
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
      const bounds = resolveRange(size, range);
      const object = await client.send(
        new GetObjectCommand({
          Bucket,
          Key: key,
          ...(bounds ? { Range: `bytes=${bounds.start}-${bounds.end}` } : {}),
        }),
      );
      return { body: object.Body as Readable, size, ...(bounds ? { range: bounds } : {}) };
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    async *list() {
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, ContinuationToken: token, MaxKeys: 1000 }),
        );
        for (const entry of page.Contents ?? []) {
          if (entry.Key && isContentAddressedPath(entry.Key)) yield entry.Key;
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
    close() {
      client.destroy();
    },
  };
}

export function createMediaStore(config: Pick<AppConfig, 'storage' | 'mediaDir'>): MediaStore {
  return config.storage.kind === 's3'
    ? createS3MediaStore(config.storage)
    : createLocalMediaStore(config.mediaDir);
}
