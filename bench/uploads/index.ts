import fs from 'node:fs';
import path from 'node:path';
import type { CreateUploadsResponse, ListUploadsResponse } from '@sticky/contracts';
import sharp from 'sharp';
import { log } from '../lib/log.ts';
import { gifsDir } from '../lib/paths.ts';
import { createTokenHolder } from '../lib/people.ts';
import { createDataDir, startBenchServer } from '../lib/server.ts';
import type { BenchServer } from '../lib/server.ts';
import { round, summarizeLatencies } from '../lib/stats.ts';
import type { LatencySummary } from '../lib/stats.ts';

export interface UploadLatency {
  /** The GIF sent each time (the same picture, one byte apart so none is a duplicate). */
  file: { source: string; bytes: number; width: number; height: number; frames: number };
  runs: number;
  /** From the request's first byte to its 202 (received, cleaned, staged, queued). */
  acceptedMs: LatencySummary;
  /** From the request's first byte to `Ready` in `GET /api/uploads`, as the upload page sees it. */
  readyMs: LatencySummary;
}

export interface UploadThroughput {
  files: number;
  megabytes: number;
  requests: number;
  filesPerRequest: number;
  uploadWorkers: number;
  importWorkers: number;
  /** From the first request to every upload `ready` or `failed`. */
  seconds: number;
  filesPerSecond: number;
  megabytesPerSecond: number;
  failed: Array<{ file: string; reason: string | null }>;
}

/**
 * One person's file while another's 20 heavy files wait in the queue (docs/uploads.md,
 * "Processing": jobs are taken round-robin by person).
 */
export interface UploadFairness {
  runs: number;
  /** The heavy person's files queued before each run's one file. */
  heavyFiles: number;
  heavyFileBytes: number;
  uploadWorkers: number;
  /** From the one file's request to its `Ready`. */
  readyMs: LatencySummary;
  /** How many of the heavy files were finished before the one file, per run (at most the workers). */
  heavyFinishedBefore: number[];
}

export interface UploadBenchResult {
  latency: UploadLatency;
  throughput: UploadThroughput;
  fairness?: UploadFairness;
}

/** A real GIF enlarged until it weighs about `targetBytes`: the "2 MB GIF" people drop. */
async function makeGifOfAbout(targetBytes: number): Promise<{ source: string; bytes: Buffer }> {
  const source = 'noto-partying-face-1f973.gif';
  const original = fs.readFileSync(path.join(gifsDir, source));
  const { width = 1 } = await sharp(original).metadata();
  let scale = 1.4;
  let bytes = original;
  for (let attempt = 0; attempt < 6; attempt += 1) {
    bytes = await sharp(original, { animated: true })
      .resize({ width: Math.round(width * scale) })
      .gif({ effort: 1 })
      .toBuffer();
    if (Math.abs(bytes.length - targetBytes) < targetBytes * 0.1) break;
    scale *= Math.sqrt(targetBytes / bytes.length);
  }
  return { source: `${source} at ${round(scale, 2)}×`, bytes };
}

/** The same GIF with another background colour index: new bytes, the same picture. */
function variant(gif: Buffer, index: number): Buffer {
  const copy = Buffer.from(gif);
  copy[11] = index % 256;
  return copy;
}

function multipart(files: Array<{ name: string; bytes: Buffer }>) {
  const form = new FormData();
  for (const file of files) {
    form.append('file', new Blob([new Uint8Array(file.bytes)], { type: 'image/gif' }), file.name);
  }
  return form;
}

async function postUploads(server: BenchServer, secret: string, form: FormData) {
  const response = await fetch(`${server.url}/api/uploads`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}` },
    body: form,
  });
  if (response.status !== 202) {
    throw new Error(`POST /api/uploads answered ${response.status}: ${await response.text()}`);
  }
  return (await response.json()) as CreateUploadsResponse;
}

async function listUploads(server: BenchServer, secret: string) {
  const response = await fetch(`${server.url}/api/uploads?limit=100`, {
    headers: { authorization: `Bearer ${secret}` },
  });
  return ((await response.json()) as ListUploadsResponse).uploads;
}

/** Polls until these uploads are ready or failed (every 20 ms, as close as a page could see). */
async function waitUntilDone(server: BenchServer, secret: string, ids: Set<string>) {
  for (;;) {
    const uploads = (await listUploads(server, secret)).filter((upload) => ids.has(upload.id));
    if (uploads.length === ids.size && uploads.every((upload) => upload.state !== 'processing')) {
      return uploads;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Uploads through the real server (docs/uploads.md): the time from dropping a 2 MB GIF to its
 * `Ready`, one at a time on an idle server, and how many files a second the queue makes into
 * items when the whole of ../shared/data/gifs arrives at once.
 */
export async function runUploadsBench(options: {
  latencyRuns: number;
  throughputFiles?: number;
}): Promise<UploadBenchResult> {
  const dataDir = createDataDir('uploads');
  const uploadWorkers = 2;
  const importWorkers = 2;
  const server = await startBenchServer(dataDir, {
    UPLOAD_WORKERS: String(uploadWorkers),
    IMPORT_WORKERS: String(importWorkers),
    UPLOAD_ITEMS_PER_DAY: '100000',
    UPLOAD_BYTES_PER_DAY: String(100 * 1024 * 1024 * 1024),
    UPLOAD_MEGAPIXELS_PER_DAY: String(100_000_000),
  });
  try {
    const { secret } = await createTokenHolder(server);

    const { source, bytes: gif } = await makeGifOfAbout(2 * 1024 * 1024);
    const metadata = await sharp(gif, { animated: true }).metadata();
    log(
      `uploads: ${options.latencyRuns} × ${source} (${round(gif.length / 1048576, 2)} MB) to Ready`,
    );
    const accepted: number[] = [];
    const ready: number[] = [];
    for (let run = 0; run < options.latencyRuns; run += 1) {
      const form = multipart([{ name: `party-${run}.gif`, bytes: variant(gif, run + 1) }]);
      const started = performance.now();
      const { uploads } = await postUploads(server, secret, form);
      accepted.push(performance.now() - started);
      const [upload] = await waitUntilDone(server, secret, new Set([uploads[0]!.uploadId!]));
      if (upload!.state !== 'ready') throw new Error(`the 2 MB GIF failed: ${upload!.reason}`);
      ready.push(performance.now() - started);
      // Let its later renditions finish: each run starts on an idle server.
      await waitForIdleQueue(server);
    }

    const fairness = await measureFairness(server, gif, {
      runs: Math.max(3, Math.ceil(options.latencyRuns / 2)),
      uploadWorkers,
    });

    const names = fs
      .readdirSync(gifsDir)
      .filter((name) => /\.(gif|webp)$/.test(name))
      .sort()
      .slice(0, options.throughputFiles);
    const files = names.map((name) => ({ name, bytes: fs.readFileSync(path.join(gifsDir, name)) }));
    const filesPerRequest = 20;
    const batches: Array<typeof files> = [];
    for (let start = 0; start < files.length; start += filesPerRequest) {
      batches.push(files.slice(start, start + filesPerRequest));
    }
    log(`uploads: ${files.length} files in ${batches.length} requests, two at a time`);
    const started = performance.now();
    const ids = new Set<string>();
    const failed: UploadThroughput['failed'] = [];
    const queue = [...batches];
    await Promise.all(
      [0, 1].map(async () => {
        for (let batch = queue.shift(); batch; batch = queue.shift()) {
          const { uploads } = await postUploads(server, secret, multipart(batch));
          for (const receipt of uploads) {
            if (receipt.uploadId) ids.add(receipt.uploadId);
            else if (receipt.state === 'failed')
              failed.push({ file: receipt.fileName, reason: receipt.reason });
          }
        }
      }),
    );
    const done = await waitUntilDone(server, secret, ids);
    const seconds = (performance.now() - started) / 1000;
    for (const upload of done) {
      if (upload.state === 'failed') failed.push({ file: upload.fileName, reason: upload.reason });
    }
    const megabytes = files.reduce((total, file) => total + file.bytes.length, 0) / 1048576;
    return {
      latency: {
        file: {
          source,
          bytes: gif.length,
          width: metadata.width ?? 0,
          height: metadata.pageHeight ?? metadata.height ?? 0,
          frames: metadata.pages ?? 1,
        },
        runs: options.latencyRuns,
        acceptedMs: roundSummary(summarizeLatencies(accepted)),
        readyMs: roundSummary(summarizeLatencies(ready)),
      },
      throughput: {
        files: files.length,
        megabytes: round(megabytes, 1),
        requests: batches.length,
        filesPerRequest,
        uploadWorkers,
        importWorkers,
        seconds: round(seconds, 1),
        filesPerSecond: round(files.length / seconds, 2),
        megabytesPerSecond: round(megabytes / seconds, 2),
        failed,
      },
      fairness,
    };
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Upload-to-Ready of one person's GIF while another person's 20 heavy GIFs (the 2 MB one)
 * wait in the queue: today's figure for the round-robin by person (docs/uploads.md,
 * "Processing"). Each run starts on an idle server with a new pair of people.
 */
async function measureFairness(
  server: BenchServer,
  heavyGif: Buffer,
  options: { runs: number; uploadWorkers: number },
): Promise<UploadFairness> {
  const heavyFiles = 20;
  const ready: number[] = [];
  const heavyFinishedBefore: number[] = [];
  log(`uploads: ${options.runs} × one GIF behind another person's ${heavyFiles} heavy GIFs`);
  for (let run = 0; run < options.runs; run += 1) {
    await waitForIdleQueue(server);
    const { secret: heavy } = await createTokenHolder(server);
    const { secret: light } = await createTokenHolder(server);
    const batch = Array.from({ length: heavyFiles }, (_, n) => ({
      name: `heavy-${run}-${n}.gif`,
      bytes: variant(heavyGif, 1000 + run * heavyFiles + n),
    }));
    const heavyIds = (await postUploads(server, heavy, multipart(batch))).uploads.flatMap(
      (receipt) => (receipt.uploadId ? [receipt.uploadId] : []),
    );
    const started = performance.now();
    const [receipt] = (
      await postUploads(
        server,
        light,
        multipart([{ name: `light-${run}.gif`, bytes: variant(heavyGif, 5000 + run) }]),
      )
    ).uploads;
    const [upload] = await waitUntilDone(server, light, new Set([receipt!.uploadId!]));
    if (upload!.state !== 'ready') throw new Error(`the one GIF failed: ${upload!.reason}`);
    ready.push(performance.now() - started);
    const { rows } = await server.database.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM uploads
       WHERE id = ANY($1) AND state <> 'processing'
         AND updated_at < (SELECT updated_at FROM uploads WHERE id = $2)`,
      [heavyIds, receipt!.uploadId],
    );
    heavyFinishedBefore.push(rows[0]!.n);
    await waitUntilDone(server, heavy, new Set(heavyIds));
  }
  return {
    runs: options.runs,
    heavyFiles,
    heavyFileBytes: heavyGif.length,
    uploadWorkers: options.uploadWorkers,
    readyMs: roundSummary(summarizeLatencies(ready)),
    heavyFinishedBefore,
  };
}

async function waitForIdleQueue(server: BenchServer) {
  for (;;) {
    const { rows } = await server.database.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pgboss.job WHERE state < 'completed'",
    );
    if (rows[0]!.n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function roundSummary(summary: LatencySummary): LatencySummary {
  return {
    count: summary.count,
    mean: round(summary.mean, 0),
    p50: round(summary.p50, 0),
    p95: round(summary.p95, 0),
    p99: round(summary.p99, 0),
    max: round(summary.max, 0),
  };
}
