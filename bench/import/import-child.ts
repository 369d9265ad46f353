// Imports a folder (or files) into the catalog of DATA_DIR the way `npm run sticky -- import` does
// (openCatalog, collectImportSources, importSources), and prints what it took as JSON.
// Runs in its own process so the parent can watch its memory and its decoder processes.
import {
  collectImportSources,
  importSources,
} from '../../apps/server/src/catalog/import/import-folder.ts';
import { openCatalog } from '../../apps/server/src/cli/open-catalog.ts';

const paths = process.argv.slice(2);
if (paths.length === 0) throw new Error('usage: import-child.ts <folder or files…>');

const catalog = await openCatalog();
try {
  const { sources, missing } = await collectImportSources(paths);
  const started = performance.now();
  const results = await importSources(
    { config: catalog.config, database: catalog.database },
    sources,
  );
  const seconds = (performance.now() - started) / 1000;
  const count = (status: string) =>
    results.filter((result) => result.outcome.status === status).length;
  process.stdout.write(
    JSON.stringify({
      workers: catalog.config.importLimits.workers,
      files: results.length,
      bytes: results.reduce((total, result) => total + result.bytes, 0),
      seconds,
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
  await catalog.close();
}
