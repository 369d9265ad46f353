import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { animateCanvas } from '../../apps/server/src/catalog/text/animate.ts';
import { renderTextAnimation } from '../../apps/server/src/catalog/text/render.ts';
import { textStyleIds } from '../../apps/server/src/catalog/text/styles.ts';
import type { TextStyleId } from '../../apps/server/src/catalog/text/styles.ts';
import { log } from '../lib/log.ts';
import { gifsDir, repoRoot } from '../lib/paths.ts';
import type { TreeMemory } from '../lib/process-tree.ts';
import { watchDecoderMemory } from './decoder-memory.ts';
import type { DecodersMemory } from './decoder-memory.ts';
import { watchProcessTree } from '../lib/process-tree.ts';
import { createDataDir } from '../lib/server.ts';
import { median, ratioOf, round } from '../lib/stats.ts';

/**
 * `ready-first`: an item is stored once its grid tiles exist, the rest is made by the job queue
 * (today's path); `all-up-front`: every rendition before the item is stored (the path before).
 */
export type ImportMode = 'ready-first' | 'all-up-front';

export interface ImportRun {
  mode: ImportMode;
  workers: number;
  files: number;
  megabytes: number;
  /** Until every file is imported and visible (its `ready` renditions made). */
  seconds: number;
  filesPerSecond: number;
  megabytesPerSecond: number;
  /** Until every rendition of every item is made (the job queue drained); null: not waited for. */
  allSeconds: number | null;
  allFilesPerSecond: number | null;
  renditions: number;
  imported: number;
  duplicates: number;
  rejected: Array<{ file: string; reason: string }>;
  medianFileMs: number;
  memory: TreeMemory;
  /** Each decoder process's own peak RSS (and with its encoders), not only the sum. */
  decoders: DecodersMemory;
  /** Peak RSS of the importer and its decoders over the machine's memory. */
  peakRssOverMemory: number;
}

export interface DecodeFloor {
  /** Decoding every frame of every file once with sharp, one file at a time. */
  seconds: number;
  megabytesPerSecond: number;
}

export interface TextRender {
  phrase: string;
  style: TextStyleId;
  ms: number;
  frames: number;
  bytes: number;
  /** How long the animation plays, once. */
  playMs: number;
  /** Render time over play time: below 1, it draws faster than it plays. */
  renderOverPlay: number;
}

export interface ImportBenchResult {
  folder: string;
  runs: ImportRun[];
  /** Runs that did not finish (killed at the time limit, crashed). */
  failures: Array<{ workers: number; mode?: ImportMode; error: string }>;
  decodeFloor: DecodeFloor;
  /** Import time over the decode-only time of the same files (1 worker). */
  importOverDecode: number;
  /** Speed-up of 2 workers over 1, next to the 2 the cores allow. */
  speedupTwoWorkers: number;
  /** With 2 workers: seconds until visible with every rendition up front ÷ ready-first. */
  readyFirstOverUpFront: number;
  text: {
    canvas: { width: number; height: number };
    format: 'gif';
    /** The very first rendering of the process (fonts and WASM loaded on demand). */
    coldMs: number;
    renders: TextRender[];
    byStyle: Record<string, { medianMs: number; medianRenderOverPlay: number }>;
  };
}

/** Phrases of different lengths and scripts, one with an emoji. */
export const textPhrases = [
  'OK',
  'Happy birthday!',
  'See you tomorrow 👋',
  'Congratulations on the new job',
  'Ça va? ¡Olé!',
];

export interface ImportChildOutput {
  mode: ImportMode;
  workers: number;
  files: number;
  bytes: number;
  seconds: number;
  allSeconds: number | null;
  renditions: number;
  imported: number;
  duplicates: number;
  rejected: Array<{ file: string; reason: string }>;
  perFileMs: number[];
}

/**
 * Runs bench/import/import-child.ts with IMPORT_WORKERS=workers into a fresh DATA_DIR; `root`
 * runs another checkout's (ready-only.ts: today's code beside a change).
 */
export async function runImportChild(
  dataDir: string,
  workers: number,
  mode: ImportMode,
  inputs: readonly string[],
  timeoutMs: number,
  options: { root?: string; env?: Record<string, string> } = {},
): Promise<{ output: ImportChildOutput; memory: TreeMemory; decoders: DecodersMemory }> {
  const root = options.root ?? repoRoot;
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'bench', 'import', 'import-child.ts'), ...inputs],
    {
      cwd: root,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        IMPORT_WORKERS: String(workers),
        STICKY_BENCH_IMPORT_MODE: mode,
        LOG_LEVEL: 'warn',
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const watcher = watchProcessTree(child.pid!);
  const decoderWatcher = watchDecoderMemory(child.pid!);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearTimeout(timer);
  const memory = watcher.stop();
  const decoders = decoderWatcher.stop();
  if (code !== 0) {
    throw new Error(
      `import (${mode}) with ${workers} worker(s) exited with ${code}:\n${stderr.slice(-2000)}`,
    );
  }
  return { output: JSON.parse(stdout) as ImportChildOutput, memory, decoders };
}

/** Decode-only time of the same files: the least any import has to do with them. */
async function measureDecodeFloor(files: readonly string[]): Promise<DecodeFloor> {
  let bytes = 0;
  const started = performance.now();
  for (const file of files) {
    const data = fs.readFileSync(file);
    bytes += data.length;
    await sharp(data, { animated: true, limitInputPixels: false }).raw().toBuffer();
  }
  const seconds = (performance.now() - started) / 1000;
  return { seconds: round(seconds, 2), megabytesPerSecond: round(bytes / 1e6 / seconds, 2) };
}

function listMediaFiles(inputs: readonly string[]): string[] {
  return inputs.flatMap((input) =>
    fs.statSync(input).isDirectory()
      ? fs
          .readdirSync(input)
          .filter((name) => /\.(gif|webp|png|jpe?g)$/i.test(name))
          .sort()
          .map((name) => path.join(input, name))
      : [input],
  );
}

async function measureTextRendering(phrases: readonly string[], styles: readonly TextStyleId[]) {
  const options = { ...animateCanvas, format: 'gif' as const };
  const coldStarted = performance.now();
  await renderTextAnimation('Warm up', 'bounce', options);
  const coldMs = performance.now() - coldStarted;
  const renders: TextRender[] = [];
  for (const phrase of phrases) {
    for (const style of styles) {
      const started = performance.now();
      const rendered = await renderTextAnimation(phrase, style, options);
      const ms = performance.now() - started;
      const playMs = rendered.delays.reduce((total, delay) => total + delay, 0);
      renders.push({
        phrase,
        style,
        ms: round(ms, 1),
        frames: rendered.frames,
        bytes: rendered.bytes.length,
        playMs,
        renderOverPlay: round(ratioOf(ms, playMs), 3),
      });
    }
  }
  const byStyle = Object.fromEntries(
    styles.map((style) => {
      const mine = renders.filter((render) => render.style === style);
      return [
        style,
        {
          medianMs: round(median(mine.map((render) => render.ms)), 1),
          medianRenderOverPlay: round(median(mine.map((render) => render.renderOverPlay)), 3),
        },
      ];
    }),
  );
  return {
    canvas: { ...animateCanvas },
    format: 'gif' as const,
    coldMs: round(coldMs, 1),
    renders,
    byStyle,
  };
}

/** `412, 398 MB (with ffmpeg 455, 430)`: each decoder's own peak, then with its encoders. */
export function describeDecoders(memory: DecodersMemory): string {
  const megabytes = (values: number[]) =>
    values.map((value) => (value / 1e6).toFixed(0)).join(', ');
  return `${megabytes(memory.decoders.map((entry) => entry.peakRssBytes))} MB (with ffmpeg ${megabytes(memory.decoders.map((entry) => entry.peakWithEncodersRssBytes))})`;
}

export interface ImportBenchOptions {
  /** Folders or files to import (default: all of ../shared/data/gifs). */
  inputs?: readonly string[];
  /** Runs, in order: ready-first with these worker counts… */
  workerCounts: readonly number[];
  /** …then the path before the job queue with these (none by default). */
  upFrontWorkerCounts?: readonly number[];
  phrases: readonly string[];
  styles?: readonly TextStyleId[];
  timeoutMs: number;
  /** Keep the DATA_DIR of the run with this many workers (for the page-weight benchmark). */
  keepWorkers?: number;
}

export async function runImportBench(
  options: ImportBenchOptions,
): Promise<{ result: ImportBenchResult; keptDataDir?: string }> {
  const inputs = options.inputs ?? [gifsDir];
  const runs: ImportRun[] = [];
  let keptDataDir: string | undefined;
  const failures: Array<{ workers: number; mode?: ImportMode; error: string }> = [];
  const plan: Array<{ workers: number; mode: ImportMode }> = [
    ...options.workerCounts.map((workers) => ({ workers, mode: 'ready-first' as const })),
    ...(options.upFrontWorkerCounts ?? []).map((workers) => ({
      workers,
      mode: 'all-up-front' as const,
    })),
  ];
  for (const { workers, mode } of plan) {
    const dataDir = createDataDir(`import-w${workers}`);
    log(`import: ${workers} worker(s), ${mode}, into ${dataDir}`);
    try {
      const { output, memory, decoders } = await runImportChild(
        dataDir,
        workers,
        mode,
        inputs,
        options.timeoutMs,
      );
      const megabytes = output.bytes / 1e6;
      const run: ImportRun = {
        mode,
        workers,
        files: output.files,
        megabytes: round(megabytes, 2),
        seconds: round(output.seconds, 1),
        filesPerSecond: round(output.files / output.seconds, 3),
        megabytesPerSecond: round(megabytes / output.seconds, 3),
        allSeconds: output.allSeconds === null ? null : round(output.allSeconds, 1),
        allFilesPerSecond:
          output.allSeconds === null ? null : round(output.files / output.allSeconds, 3),
        renditions: output.renditions,
        imported: output.imported,
        duplicates: output.duplicates,
        rejected: output.rejected.map((entry) => ({
          file: path.basename(entry.file),
          reason: entry.reason,
        })),
        medianFileMs: round(median(output.perFileMs), 0),
        memory,
        decoders,
        peakRssOverMemory: round(memory.peakNodeRssBytes / os.totalmem(), 4),
      };
      runs.push(run);
      log(
        `import:   ${run.files} files, ${run.megabytes} MB visible in ${run.seconds} s: ${run.filesPerSecond} files/s, ${run.megabytesPerSecond} MB/s; every rendition (${run.renditions}) in ${run.allSeconds} s; peak RSS ${(memory.peakNodeRssBytes / 1e6).toFixed(0)} MB, per decoder ${describeDecoders(decoders)}, ${run.rejected.length} rejected`,
      );
      if (workers === options.keepWorkers && mode === 'ready-first' && !keptDataDir) {
        keptDataDir = dataDir;
      }
    } catch (error) {
      // One failed run (a timeout on a busy machine) is reported; the others still count.
      failures.push({ workers, mode, error: (error as Error).message.slice(0, 1000) });
      log(`import:   ${workers} worker(s) failed: ${(error as Error).message.split('\n')[0]}`);
    } finally {
      if (keptDataDir !== dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  log('import: decode-only floor');
  const decodeFloor = await measureDecodeFloor(listMediaFiles(inputs));
  log(`import: text rendering, ${options.phrases.length} phrases`);
  const text =
    options.phrases.length > 0
      ? await measureTextRendering(options.phrases, options.styles ?? textStyleIds)
      : {
          canvas: { ...animateCanvas },
          format: 'gif' as const,
          coldMs: Number.NaN,
          renders: [],
          byStyle: {},
        };
  const one = runs.find((run) => run.workers === 1 && run.mode === 'ready-first');
  const two = runs.find((run) => run.workers === 2 && run.mode === 'ready-first');
  const twoUpFront = runs.find((run) => run.workers === 2 && run.mode === 'all-up-front');
  return {
    keptDataDir,
    result: {
      folder: inputs.map((input) => path.relative(repoRoot, input)).join(', '),
      runs,
      failures,
      decodeFloor,
      importOverDecode: one ? round(ratioOf(one.seconds, decodeFloor.seconds), 1) : Number.NaN,
      speedupTwoWorkers: one && two ? round(ratioOf(one.seconds, two.seconds), 2) : Number.NaN,
      readyFirstOverUpFront:
        two && twoUpFront ? round(ratioOf(twoUpFront.seconds, two.seconds), 2) : Number.NaN,
      text,
    },
  };
}
