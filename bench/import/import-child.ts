// Imports a folder (or files) into the catalog of DATA_DIR the way `npm run sticky -- import` does
// (openCatalog, collectImportSources, importSources, then the remaining renditions), and prints
// what it took as JSON. Runs in its own process so the parent can watch its memory and its
// decoder and encoder processes.
//
// STICKY_BENCH_IMPORT_MODE=all-up-front makes every rendition before an item is stored (the
// path before the job queue), for the before/after comparison in one bench run.
// STICKY_BENCH_IMPORT_DRAIN=false stops once every item is visible, without making the later
// renditions (bench/import/ready-only.ts: the ready path alone, in a minute).
import {
  collectImportSources,
  importSources,
} from '../../apps/server/src/catalog/import/import-folder.ts';
import { makeRemainingRenditions } from '../../apps/server/src/catalog/import/later-renditions.ts';
import { openCatalog } from '../../apps/server/src/cli/open-catalog.ts';
import { createJobQueue } from '../../apps/server/src/jobs/job-queue.ts';

const paths = process.argv.slice(2);
if (paths.length === 0) throw new Error('usage: import-child.ts <folder or files…>');
const mode =
  process.env.STICKY_BENCH_IMPORT_MODE === 'all-up-front' ? 'all-up-front' : 'ready-first';

const catalog = await openCatalog();
const jobs = createJobQueue({ database: catalog.database, log: catalog.log });
try {
  await jobs.start();
  const { sources, missing } = await collectImportSources(paths);
  const deps = { config: catalog.config, database: catalog.database, media: catalog.media };
  const started = performance.now();
  const results = await importSources(mode === 'ready-first' ? { ...deps, jobs } : deps, sources);
  const seconds = (performance.now() - started) / 1000;
  // The job queue's share: every rendition made, as the CLI waits for before it exits. With one
  // worker only the time until visible is measured (it gives the 2-over-1 speed-up): the drain
  // is the same work again and would double the bench's time.
  const isDrained =
    process.env.STICKY_BENCH_IMPORT_DRAIN !== 'false' &&
    (catalog.config.importLimits.workers > 1 || mode === 'all-up-front');
  if (isDrained) await makeRemainingRenditions({ ...deps, jobs, log: catalog.log });
  const allSeconds = isDrained ? (performance.now() - started) / 1000 : null;
  const renditions = await catalog.database.pool.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM renditions',
  );
  const count = (status: string) =>
    results.filter((result) => result.outcome.status === status).length;
  process.stdout.write(
    JSON.stringify({
      mode,
      workers: catalog.config.importLimits.workers,
      files: results.length,
      bytes: results.reduce((total, result) => total + result.bytes, 0),
      seconds,
      allSeconds,
      renditions: renditions.rows[0]?.count ?? 0,
      imported: count('imported'),
      duplicates: count('duplicate'),
      rejected: results.flatMap((result) =>
        result.outcome.status === 'rejected'
          ? [{ file: result.file, reason: result.outcome.reason }]
          : [],
      ),
      missing,
      perFileMs: results.map((result) => result.ms),
    }),
  );
} finally {
  await jobs.stop();
  await catalog.close();
}
