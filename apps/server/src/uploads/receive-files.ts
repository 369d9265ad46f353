import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import { formatBytes } from '@sticky/contracts';
import { sniffFormat } from '../catalog/import/inspect-media.ts';
import { AppError } from '../lib/app-error.ts';

/** One file part of a request, on disk in the request's temporary folder. */
export type ReceivedFile =
  | { kind: 'kept'; fileName: string; path: string; bytes: number }
  | { kind: 'refused'; fileName: string; reason: string; cause: RefusalCause };

export type RefusalCause = 'not_an_image' | 'empty' | 'over_quota';

export interface ReceivedRequest {
  files: ReceivedFile[];
  /** Text fields by name (the last value of a repeated one). */
  fields: Record<string, string>;
  /** Removes the request's temporary folder: always called, whatever happened. */
  discard: () => Promise<void>;
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

/**
 * Stores one file part, counting and hashing as it goes. A part over the limit ends the whole
 * request at once (docs/uploads.md, "Receiving"): nothing more of it is read.
 */
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
  // busboy marks the part truncated and says 'limit' once it holds UPLOAD_MAX_BYTES of it, and
  // would then read the rest of the part only to drop it. Destroying the part instead makes
  // the plugin stop feeding busboy: the rest of the body stays unread.
  const tooBig = () =>
    new AppError(
      'payload_too_large',
      `${fileName} is over the limit of ${formatBytes(maxFileBytes)} per file: send a smaller file. The server stopped reading there, so nothing of this request was kept.`,
    );
  const stopReading = () => part.file.destroy(tooBig());
  // The limit may be reached before the part is handed over (a body that arrived at once).
  if (part.file.truncated) stopReading();
  else part.file.once('limit', stopReading);
  const writer = fs.createWriteStream(filePath, { flags: 'wx' });
  try {
    await pipeline(part.file, counter, writer);
  } catch (error) {
    // A part stopped at once may fail before its file is even open: remove the file only once
    // the stream has let go of it, or the open would make it again after the removal.
    if (!writer.closed) await once(writer, 'close');
    await fsp.rm(filePath, { force: true });
    throw part.file.truncated && !(error instanceof AppError) ? tooBig() : error;
  }
  const refuse = async (reason: string, cause: RefusalCause): Promise<ReceivedFile> => {
    await fsp.rm(filePath, { force: true });
    return { kind: 'refused', fileName, reason, cause };
  };
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
 * throws, and `discard` removes what was written. A file part over `maxFileBytes` throws a
 * 413 AppError at once, with nothing more of the request read, and leaves nothing either.
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
