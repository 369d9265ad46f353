import path from 'node:path';
import { formatBytes, itemVisibilitySchema } from '@sticky/contracts';
import { eq } from 'drizzle-orm';
import {
  collectImportSources,
  importSources,
  ManifestError,
} from '../catalog/import/import-folder.ts';
import type { ImportResult } from '../catalog/import/import-folder.ts';
import type { ItemMetadata } from '../catalog/import/import-media.ts';
import { resolveFfmpegPath } from '../catalog/import/encode-video.ts';
import {
  isRenditionWorkerRunningElsewhere,
  listItemsLackingRenditions,
  makeLaterRenditionsOf,
  waitForRenditionJobsOf,
} from '../catalog/import/later-renditions.ts';
import type { LaterRenditionsDeps } from '../catalog/import/later-renditions.ts';
import { importJobs } from '../db/schema.ts';
import { createJobQueue } from '../jobs/job-queue.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { formatWholeMegabytes, readFreeSpace } from '../storage/free-space.ts';
import type { CliCommand } from './cli-command.ts';
import { CliError, createProgressBar, parseCommandArgs, usageExitCode } from './cli-command.ts';
import { openCatalog } from './open-catalog.ts';

export interface ImportSummary {
  imported: Array<{ file: string; itemId: string; slug: string }>;
  duplicates: Array<{ file: string; itemId: string }>;
  rejected: Array<{ file: string; reason: string }>;
  files: number;
  bytes: number;
  ms: number;
}

export function summarise(
  results: readonly ImportResult[],
  missing: ImportSummary['rejected'],
  ms: number,
): ImportSummary {
  const summary: ImportSummary = {
    imported: [],
    duplicates: [],
    rejected: [...missing],
    files: results.length,
    bytes: results.reduce((sum, result) => sum + result.bytes, 0),
    ms,
  };
  for (const { file, outcome } of results) {
    if (outcome.status === 'imported') summary.imported.push({ file, ...outcome });
    else if (outcome.status === 'duplicate') summary.duplicates.push({ file, ...outcome });
    else summary.rejected.push({ file, reason: outcome.reason });
  }
  return summary;
}

/** Exit code when a file was refused (sysexits' EX_DATAERR): the others are imported. */
export const refusedExitCode = 65;

export function formatRefusal(refused: number): string {
  return `${refused} ${refused === 1 ? 'file was' : 'files were'} not imported: the reasons are above.`;
}

/** About how long the rest takes at the pace so far, for the progress bar. */
export function formatTimeLeft(elapsedMs: number, done: number, total: number): string {
  if (done === 0) return 'estimating the time left';
  const seconds = Math.ceil(((elapsedMs / done) * (total - done)) / 1000);
  if (seconds < 60) return `about ${seconds} s left`;
  return `about ${Math.round(seconds / 60)} min left`;
}

/**
 * The other renditions of the command's items, those its files made or already were
 * (docs/catalog.md, "Jobs"). Beside a running server its workers make them from the jobs the
 * import queued, so the command returns at once, or with `--wait` once these items' jobs are
 * done; never after the catalog's whole backlog. With no server this process makes them, for
 * these items only; Ctrl-C leaves the rest queued for the next server start.
 */
async function finishRenditions(
  deps: LaterRenditionsDeps & { jobs: JobQueue },
  summary: Pick<ImportSummary, 'imported' | 'duplicates'>,
  options: { isWaiting: boolean },
): Promise<void> {
  // A duplicate's item may still lack sizes (a run stopped with Ctrl-C): running again finishes it.
  const itemIds = [
    ...new Set([...summary.imported, ...summary.duplicates].map((entry) => entry.itemId)),
  ];
  if (itemIds.length === 0) return;
  if (await isRenditionWorkerRunningElsewhere(deps.jobs)) {
    if (summary.imported.length > 0) {
      console.log('Imported items are visible now; the running server makes the other sizes.');
    }
    if (!options.isWaiting) return;
    const bar = createProgressBar('Waiting for the other sizes {bar} {value}/{total} items');
    bar.start(itemIds.length, 0);
    await waitForRenditionJobsOf(deps.jobs, itemIds, {
      onProgress: (left) => bar.update(itemIds.length - left),
    });
    bar.stop();
    const lacking = await listItemsLackingRenditions(deps.database, itemIds, {
      canMakeVideo: resolveFfmpegPath() !== undefined,
    });
    if (lacking.length === 0) console.log('Every size of these items is made.');
    else console.error(formatLacking(lacking));
    return;
  }
  const bar = createProgressBar(
    'Making the other sizes {bar} {value}/{total} items, {timeLeft} (Ctrl-C: the next server start makes the rest)',
  );
  const started = Date.now();
  bar.start(itemIds.length, 0, { timeLeft: formatTimeLeft(0, 0, itemIds.length) });
  const unmade = await makeLaterRenditionsOf(deps, itemIds, {
    onItemDone: (done) =>
      bar.update(done, { timeLeft: formatTimeLeft(Date.now() - started, done, itemIds.length) }),
  });
  bar.stop();
  if (unmade.length > 0) console.error(formatLacking(unmade.map((entry) => entry.itemId)));
  for (const { itemId, reason } of unmade) console.error(`  item ${itemId}: ${reason}`);
}

export function formatLacking(itemIds: readonly string[]): string {
  const count =
    itemIds.length === 1
      ? '1 item lacks some of its other sizes'
      : `${itemIds.length} items lack some of their other sizes`;
  return `${count}: \`npm run sticky -- renditions\` tries again.`;
}

export function formatSummary(summary: ImportSummary, cwd = process.cwd()): string {
  const show = (file: string) => {
    const relative = path.relative(cwd, file);
    return relative.startsWith('..') ? file : relative;
  };
  const seconds = summary.ms / 1000;
  const lines = [
    `Imported ${summary.imported.length}, skipped ${summary.duplicates.length} as duplicates, rejected ${summary.rejected.length}` +
      ` (${summary.files} files, ${formatBytes(summary.bytes)} in ${seconds.toFixed(1)} s).`,
  ];
  if (summary.duplicates.length > 0) {
    lines.push('', 'Skipped (already in the catalog, same content):');
    for (const duplicate of summary.duplicates) {
      lines.push(`  ${show(duplicate.file)}: same as item ${duplicate.itemId}`);
    }
  }
  if (summary.rejected.length > 0) {
    lines.push('', 'Rejected:');
    for (const rejected of summary.rejected)
      lines.push(`  ${show(rejected.file)}: ${rejected.reason}`);
  }
  return lines.join('\n');
}

async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(importCommand.usage, {
    args,
    allowPositionals: true,
    options: {
      type: { type: 'string' },
      rating: { type: 'string' },
      category: { type: 'string', multiple: true },
      wait: { type: 'boolean', default: false },
      visibility: { type: 'string' },
    },
  });
  if (positionals.length === 0) {
    throw new CliError(`Usage: ${importCommand.usage}`, usageExitCode);
  }
  const defaults: Partial<ItemMetadata> = {};
  if (values.type !== undefined) {
    if (!['gif', 'sticker', 'text'].includes(values.type)) {
      throw new CliError(
        `--type must be gif, sticker or text, got ${JSON.stringify(values.type)}`,
        64,
      );
    }
    defaults.type = values.type as ItemMetadata['type'];
  }
  if (values.rating !== undefined) {
    if (!['g', 'pg', 'pg-13', 'r'].includes(values.rating)) {
      throw new CliError(
        `--rating must be g, pg, pg-13 or r, got ${JSON.stringify(values.rating)}`,
        64,
      );
    }
    defaults.rating = values.rating as ItemMetadata['rating'];
  }
  if (values.category) defaults.categories = values.category;
  // Imports are public unless asked (docs/uploads.md, "Visibility"), whatever UPLOAD_VISIBILITY.
  if (values.visibility !== undefined) {
    const visibility = itemVisibilitySchema.safeParse(values.visibility);
    if (!visibility.success) {
      throw new CliError(
        `--visibility must be public, unlisted or private, got ${JSON.stringify(values.visibility)}`,
        64,
      );
    }
    defaults.visibility = visibility.data;
  }

  let collected;
  try {
    collected = await collectImportSources(positionals, defaults);
  } catch (error) {
    if (error instanceof ManifestError) throw new CliError(error.message);
    throw error;
  }
  if (collected.sources.length === 0 && collected.missing.length > 0) {
    throw new CliError(
      collected.missing.map((entry) => `${entry.file}: ${entry.reason}`).join('\n'),
      66,
    );
  }

  const catalog = await openCatalog();
  // The server's floor holds here too (docs/uploads.md, "Receiving"): an import fills the disk
  // as surely as uploads do.
  const space = await readFreeSpace(catalog.config, catalog.config.dataDir).catch(
    async (error: unknown) => {
      await catalog.close();
      throw error;
    },
  );
  if (space.isLow) {
    await catalog.close();
    throw new CliError(
      `Nothing was imported: the disk of DATA_DIR (${catalog.config.dataDir}) has ${formatWholeMegabytes(space.freeBytes)} free, under MIN_FREE_DISK_MB (${formatWholeMegabytes(space.floorBytes)}). Free some space and run this again.`,
      75,
    );
  }
  // Items appear as soon as their grid tiles exist; the other renditions are jobs
  // (docs/catalog.md, "Jobs"), left to a running server or made below (finishRenditions).
  const jobs = createJobQueue({ database: catalog.database, log: catalog.log });
  try {
    const { config, database, media } = catalog;
    await jobs.start();
    const [job] = await database.db.insert(importJobs).values({}).returning({ id: importJobs.id });
    const bar = createProgressBar('Importing {bar} {value}/{total} | {file}', { etaBuffer: 20 });
    bar.start(collected.sources.length, 0, { file: '' });
    const started = Date.now();
    const results = await importSources({ config, database, media, jobs }, collected.sources, {
      onResult: (result) => bar.increment({ file: path.basename(result.file) }),
    });
    bar.stop();
    const summary = summarise(results, collected.missing, Date.now() - started);
    await database.db
      .update(importJobs)
      .set({
        finishedAt: new Date(),
        summary: {
          paths: positionals,
          imported: summary.imported.length,
          duplicates: summary.duplicates.length,
          rejected: summary.rejected,
          files: summary.files,
          bytes: summary.bytes,
          ms: summary.ms,
        },
      })
      .where(eq(importJobs.id, job!.id));
    console.log(formatSummary(summary));
    await finishRenditions({ config, database, media, jobs }, summary, {
      isWaiting: values.wait,
    });
    if (summary.rejected.length > 0) {
      console.error(formatRefusal(summary.rejected.length));
      return refusedExitCode;
    }
    return 0;
  } finally {
    await jobs.stop();
    await catalog.close();
  }
}

export const importCommand: CliCommand = {
  summary: 'Import GIFs, WebPs, PNGs and JPEGs (folders use their manifest.json)',
  usage:
    'npm run sticky -- import <folder or files…> [--type gif|sticker|text] [--rating g|pg|pg-13|r] [--category "Parent/Sub"]… [--visibility public|unlisted|private] [--wait]\n' +
    '  --wait  beside a running server, wait until it has made every size of the imported items',
  run,
};
