import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { titleFromFileName } from '@sticky/contracts';
import { ExifTool } from 'exiftool-vendored';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../test-support/app.ts';
import type { TestApp } from '../test-support/app.ts';
import { createTestDatabase } from '../test-support/database.ts';
import type { TestDatabase } from '../test-support/database.ts';
import { listFilesUnder } from '../test-support/files.ts';
import {
  makeMetadataCorpus,
  makeUnfollowableFiles,
  PLANTED_MARK,
} from '../test-support/metadata-corpus.ts';
import type { CorpusFile } from '../test-support/metadata-corpus.ts';
import { runCli } from '../test-support/processes.ts';
import { signInAs } from '../test-support/sign-in.ts';
import { postUploads, sameSiteHeaders, waitForUploads } from '../test-support/uploads.ts';

/**
 * The crafted corpus (test-support/metadata-corpus.ts) sent the two ways files come in, an
 * upload and the CLI import; then every stored file (originals and renditions) is scanned for
 * the planted strings, and every original is read by ExifTool, a real metadata reader
 * (docs/uploads.md, "Cleaned originals").
 */

/** Metadata groups ExifTool names (exiftool -G) that must not be in a stored original. */
const metadataGroups = /^(EXIF|XMP|IPTC|Photoshop|MPF|MakerNotes|JUMBF|C2PA|ICC-meta|GPS)/;

/** Corpus files whose planted metadata ExifTool itself finds before cleaning. */
const seenByExifTool = /^(jpeg-exif-after-eoi|jpeg-rotated|png|webp|gif)-/;

interface StoredOriginal {
  title: string;
  width: number;
  height: number;
  frames: number;
  file: string;
}

const readPlanted = (file: string) => {
  return fs.readFileSync(file).includes(PLANTED_MARK) ? path.basename(file) : undefined;
};

/** The originals of a database's items, by title, with the path of their file. */
async function readOriginals(
  pool: TestDatabase['pool'],
  mediaDir: string,
): Promise<Map<string, StoredOriginal>> {
  const { rows } = await pool.query<Omit<StoredOriginal, 'file'> & { path: string }>(
    `SELECT i.title, i.width, i.height, i.frames, r.path FROM items i
       JOIN renditions r ON r.item_id = i.id AND r.name = 'original' AND r.format = i.original_format`,
  );
  return new Map(
    rows.map(({ path: relative, ...row }) => [
      row.title,
      { ...row, file: path.join(mediaDir, relative) },
    ]),
  );
}

/** What must hold of every stored file, however it came in. */
async function expectClean(
  exiftool: ExifTool,
  corpus: CorpusFile[],
  originals: Map<string, StoredOriginal>,
  mediaDir: string,
) {
  const stored = listFilesUnder(mediaDir);
  expect(stored.length).toBeGreaterThan(corpus.length);
  expect(stored.map(readPlanted).filter(Boolean)).toEqual([]);

  for (const source of corpus) {
    const original = originals.get(titleFromFileName(source.name));
    expect(original, source.name).toBeDefined();
    const { width, height, frames, loop } = source.expected;
    // Shown as before: upright, every frame, the same loop count.
    expect([original!.width, original!.height, original!.frames], source.name).toEqual([
      width,
      height,
      frames,
    ]);
    const decoded = await sharp(original!.file, { animated: true }).metadata();
    const upright = decoded.autoOrient;
    expect([upright.width, decoded.pageHeight ?? upright.height, decoded.pages ?? 1]).toEqual([
      width,
      height,
      frames,
    ]);
    if (loop !== undefined) expect(decoded.loop, source.name).toBe(loop);

    expect(await findMetadata(exiftool, original!.file), source.name).toEqual([]);
  }
}

/** The tags ExifTool reads in a file that say more than how to show it. */
async function findMetadata(exiftool: ExifTool, file: string): Promise<[string, unknown][]> {
  const tags = (await exiftool.readRaw(file, ['-G', '-a', '-u'])) as Record<string, unknown>;
  return Object.entries(tags).filter(
    ([key, value]) =>
      String(value).includes(PLANTED_MARK) ||
      /Comment|Warning/.test(key) ||
      (metadataGroups.test(key) && key !== 'EXIF:Orientation'),
  );
}

describe('a crafted corpus uploaded and imported comes out clean', () => {
  let exiftool: ExifTool;
  beforeAll(() => {
    exiftool = new ExifTool({ maxProcs: 1 });
  });
  afterAll(async () => {
    await exiftool.end();
  });

  describe('through POST /api/uploads', () => {
    let testApp: TestApp;
    let auth: Record<string, string>;

    beforeAll(async () => {
      testApp = await createTestApp({}, { hasJobs: true });
      auth = sameSiteHeaders(testApp, (await signInAs(testApp)).cookie);
    });
    afterAll(async () => {
      await testApp?.close();
    });

    it('stores no planted string in any file, and shows each as before', async () => {
      const corpus = await makeMetadataCorpus(1);
      for (const file of corpus) expect(file.bytes.includes(PLANTED_MARK), file.name).toBe(true);

      const response = await postUploads(testApp, auth, corpus);
      expect(response.statusCode).toBe(202);
      const uploads = await waitForUploads(testApp, auth);
      expect(uploads.map((upload) => [upload.fileName, upload.state])).toEqual(
        expect.arrayContaining(corpus.map((file) => [file.name, 'ready'])),
      );
      const mediaDir = testApp.config.mediaDir;
      await expectClean(
        exiftool,
        corpus,
        await readOriginals(testApp.database.pool, mediaDir),
        mediaDir,
      );
    });

    it('refuses at once a file it cannot follow, saying why, and keeps nothing of it', async () => {
      const refused = await makeUnfollowableFiles(1);
      const response = await postUploads(testApp, auth, refused);
      expect(response.statusCode).toBe(415);
      const { message } = (response.json() as { error: { message: string } }).error;
      for (const file of refused) {
        expect(message).toMatch(new RegExp(`${file.name}: [^.]*${file.reason.source}`));
      }
      const staged = await testApp.database.pool.query(
        'SELECT count(*)::int AS n FROM upload_files',
      );
      expect(staged.rows[0].n).toBe(0);
      const rows = await testApp.database.pool.query(
        'SELECT count(*)::int AS n FROM uploads WHERE file_name = ANY($1)',
        [refused.map((file) => file.name)],
      );
      expect(rows.rows[0].n).toBe(0);
    });
  });

  describe('through the CLI import', () => {
    let database: TestDatabase;
    let folder: string;
    let dataDir: string;

    beforeAll(async () => {
      database = await createTestDatabase();
      folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-clean-import-'));
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-clean-data-'));
    });
    afterAll(async () => {
      await database?.destroy();
      fs.rmSync(folder, { recursive: true, force: true });
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('stores no planted string in any file, and rejects what it cannot follow', async () => {
      const corpus = await makeMetadataCorpus(2);
      const refused = await makeUnfollowableFiles(2);
      for (const file of [...corpus, ...refused]) {
        fs.writeFileSync(path.join(folder, file.name), file.bytes);
      }
      // The reader sees what was planted: an empty answer below means clean, not blind. It
      // reads what sits where readers look (segments before a JPEG's first scan, every chunk
      // and block of the others); what hides elsewhere is for the byte scan.
      for (const file of corpus.filter((each) => seenByExifTool.test(each.name))) {
        const found = await findMetadata(exiftool, path.join(folder, file.name));
        expect(found, file.name).not.toEqual([]);
      }
      const result = await runCli(['import', folder], {
        DATABASE_URL: database.url,
        DATA_DIR: dataDir,
        IMPORT_WORKERS: '1',
      });
      // A refused file makes the import's exit code say so (docs/catalog.md, "Import").
      expect(result.code, result.stderr).toBe(65);
      expect(result.stdout).toMatch(
        new RegExp(
          `^Imported ${corpus.length}, skipped 0 as duplicates, rejected ${refused.length}`,
          'm',
        ),
      );
      const mediaDir = path.join(dataDir, 'media');
      await expectClean(exiftool, corpus, await readOriginals(database.pool, mediaDir), mediaDir);
      // The damaged files are refused by the cleaner, in its words, before any decoder.
      for (const file of refused) {
        expect(result.stdout).toMatch(new RegExp(`${file.name}: .*${file.reason.source}`));
      }
    });
  });
});
