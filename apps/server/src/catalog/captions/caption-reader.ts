import { createRequire } from 'node:module';
import path from 'node:path';
import { createWorker, OEM, PSM } from 'tesseract.js';
import type { Worker } from 'tesseract.js';
import { buildCaption } from './caption-words.ts';
import type { WordReading } from './caption-words.ts';
import { pickCaptionFrames, prepareCaptionFrame } from './caption-frames.ts';

const require = createRequire(import.meta.url);

/**
 * The engine's files, all from node_modules: nothing is downloaded, ever (docs/catalog.md,
 * "Captions"). The English LSTM model in its integer form (2.9 MB, the fastest); the worker
 * script and the WebAssembly core are tesseract.js's own in Node.
 */
function resolveEnginePaths() {
  const dataDir = path.dirname(require.resolve('@tesseract.js-data/eng/package.json'));
  return { langPath: path.join(dataDir, '4.0.0_best_int') };
}

export interface CaptionReading {
  /** The words kept, in reading order, or '' when there are none. */
  caption: string;
  /** Frames read. */
  frames: number;
}

/**
 * Reads the words written inside an image. One engine per app (a worker thread), started on the
 * first read and closed with the app; reads run one at a time.
 */
export interface CaptionReader {
  read(bytes: Buffer): Promise<CaptionReading>;
  close(): Promise<void>;
}

export function createCaptionReader(): CaptionReader {
  let worker: Promise<Worker> | undefined;
  let chain: Promise<unknown> = Promise.resolve();
  const startWorker = async () => {
    const { langPath } = resolveEnginePaths();
    const created = await createWorker('eng', OEM.LSTM_ONLY, {
      langPath,
      gzip: true,
      // The model is read from node_modules each start, never written next to the process.
      cacheMethod: 'none',
    });
    await created.setParameters({
      // Captions are scattered lines, not a page.
      tessedit_pageseg_mode: PSM.SPARSE_TEXT,
      // Frames are upscaled to letters of a printed page's size; saves the engine its guess.
      user_defined_dpi: '300',
      // Its diagnostics ("Detected 17 diacritics") would go to the server's stdout.
      debug_file: '/dev/null',
    });
    return created;
  };
  const readWords = async (engine: Worker, png: Buffer): Promise<WordReading[]> => {
    const result = await engine.recognize(png, {}, { blocks: true });
    return (result.data.blocks ?? []).flatMap((block) =>
      block.paragraphs.flatMap((paragraph) =>
        paragraph.lines.flatMap((line) =>
          line.words.map((word) => ({ text: word.text, confidence: word.confidence })),
        ),
      ),
    );
  };
  const readNow = async (bytes: Buffer): Promise<CaptionReading> => {
    worker ??= startWorker();
    const engine = await worker;
    const frames = await pickCaptionFrames(bytes);
    const readings: WordReading[][] = [];
    for (const page of frames) {
      for (const png of await prepareCaptionFrame(bytes, page)) {
        readings.push(await readWords(engine, png));
      }
    }
    return { caption: buildCaption(readings), frames: frames.length };
  };
  return {
    read(bytes) {
      const next = chain.then(() => readNow(bytes));
      chain = next.catch(() => {});
      return next;
    },
    async close() {
      const started = worker;
      worker = undefined;
      if (started) await (await started.catch(() => undefined))?.terminate();
    },
  };
}
