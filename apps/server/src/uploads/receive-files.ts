import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import { sniffFormat } from '../catalog/import/inspect-media.ts';

/** One file part of a request, on disk in the request's temporary folder. */
export type ReceivedFile =
  | { kind: 'kept'; fileName: string; path: string; bytes: number }
  | { kind: 'refused'; fileName: string; reason: string; cause: RefusalCause };

export type RefusalCause = 'too_big' | 'not_an_image' | 'empty' | 'over_quota';

export interface ReceivedRequest {
  files: ReceivedFile[];
  /** Text fields by name (the last value of a repeated one). */
  fields: Record<string, string>;
  /** Removes the request's temporary folder: always called, whatever happened. */
  discard: () => Promise<void>;
}

const formatMegabytes = (bytes: number) =>
  `${(bytes / (1024 * 1024)).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`;

/** A size for people: megabytes, or kilobytes under one megabyte (small quotas, small files). */
export function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? formatMegabytes(bytes) : `${Math.ceil(bytes / 1024)} KB`;
}

/** What a file that is not one of our image formats looks like, to say so. */
function describeNonImage(head: Buffer): string {
  const text = head.toString('latin1').trimStart().toLowerCase();
  if (text.startsWith('<!doctype html') || text.startsWith('<html') || text.startsWith('<')) {
    return 'it is HTML or XML';
  }
  if (text.startsWith('%pdf')) return 'it is a PDF';
  if (head.subarray(4, 8).toString('latin1') === 'ftyp') return 'it is a video';
  if (head.subarray(0, 4).toString('latin1') === 'PK\u0003\u0004') return 'it is an archive';
  const isText = [...head].every((byte) => byte === 9 || byte === 10 || byte === 13 || byte >= 32);
  return isText ? 'it is text' : 'its first bytes are not an image header';
}

/** A file name fit to show and store: no folders, no control characters, at most 200 long. */
export function cleanFileName(name: string | undefined): string {
  const base = [...path.basename((name ?? '').replace(/\\/g, '/'))]
    .filter((character) => character.charCodeAt(0) >= 32 && character.charCodeAt(0) !== 127)
    .join('');
  return base.trim().slice(0, 200) || 'file';
}

/** Stores one file part, counting and hashing as it goes; stops storing at the limit. */
async function receiveFile(
  part: MultipartFile,
  folder: string,
  maxFileBytes: number,
): Promise<ReceivedFile> {
  const fileName = cleanFileName(part.filename);
  const filePath = path.join(folder, `${randomUUID()}.part`);
  const head: Buffer[] = [];
  let headBytes = 0;
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      if (headBytes < 64) {
        head.push(chunk.subarray(0, 64 - headBytes));
        headBytes += Math.min(chunk.length, 64 - headBytes);
      }
      callback(null, chunk);
    },
  });
  await pipeline(part.file, counter, fs.createWriteStream(filePath, { flags: 'wx' }));
  const refuse = async (reason: string, cause: RefusalCause): Promise<ReceivedFile> => {
    await fsp.rm(filePath, { force: true });
    return { kind: 'refused', fileName, reason, cause };
  };
  // busboy stops passing bytes on at the limit and drops the rest of the part.
  if (part.file.truncated) {
    return refuse(
      `${fileName} is over the limit of ${formatMegabytes(maxFileBytes)} per file: send a smaller file.`,
      'too_big',
    );
  }
  if (bytes === 0) return refuse(`${fileName} is empty.`, 'empty');
  const start = Buffer.concat(head);
  if (!sniffFormat(start)) {
    return refuse(
      `${fileName} is not a GIF, WebP, PNG or JPEG image (${describeNonImage(start)}).`,
      'not_an_image',
    );
  }
  return { kind: 'kept', fileName, path: filePath, bytes };
}

/**
 * Reads every part of a multipart request (docs/uploads.md, "Receiving"): file parts stream
 * to a temporary folder of this request, fields are collected. The caller decides what to keep
 * only once the whole request is in, so a request cut off halfway leaves nothing: the iterator
 * throws, and `discard` removes what was written.
 */
export async function receiveMultipart(
  parts: AsyncIterableIterator<Multipart>,
  options: { tempDir: string; maxFileBytes: number },
): Promise<ReceivedRequest> {
  await fsp.mkdir(options.tempDir, { recursive: true });
  const folder = await fsp.mkdtemp(path.join(options.tempDir, 'request-'));
  const received: ReceivedRequest = {
    files: [],
    fields: {},
    discard: () => fsp.rm(folder, { recursive: true, force: true }),
  };
  try {
    for await (const part of parts) {
      if (part.type === 'file') {
        received.files.push(await receiveFile(part, folder, options.maxFileBytes));
      } else if (typeof part.value === 'string') {
        received.fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    await received.discard();
    throw error;
  }
  return received;
}

/**
 * Temporary folders of requests that never finished (the process was killed mid-request): at
 * start-up, any older than an hour goes. Younger ones may belong to a request under way in
 * another process on the same DATA_DIR (the import CLI).
 */
export async function sweepTemporaryFiles(tempDir: string, now = Date.now()): Promise<number> {
  let removed = 0;
  const entries = await fsp.readdir(tempDir).catch(() => [] as string[]);
  for (const entry of entries) {
    const entryPath = path.join(tempDir, entry);
    const stat = await fsp.stat(entryPath).catch(() => undefined);
    if (stat && now - stat.mtimeMs > 60 * 60 * 1000) {
      await fsp.rm(entryPath, { recursive: true, force: true });
      removed += 1;
    }
  }
  return removed;
}
