import { STARTER_CATALOG_VERSION } from '../catalog/starter/plan.ts';
import { makeRemainingRenditions } from '../catalog/import/later-renditions.ts';
import { seedStarterCatalog } from '../catalog/starter/seed.ts';
import { createJobQueue } from '../jobs/job-queue.ts';
import type { SeedSummary } from '../catalog/starter/seed.ts';
import type { CliCommand } from './cli-command.ts';
import { createProgressBar, parseCommandArgs } from './cli-command.ts';
import { openCatalog } from './open-catalog.ts';

export function formatSeedSummary(summary: SeedSummary): string {
  const version = `Starter catalog v${summary.version}`;
  switch (summary.status) {
    case 'already-seeded':
      return `${version} is already there; nothing to do. Use --force to make it again.`;
    case 'busy':
      return `${version} is being made by another Sticky process right now; try again when it is done.`;
    case 'stopped':
      return `${version}: stopped before the end.`;
    case 'seeded': {
      const { byType } = summary;
      const lines = [
        `${version}: made ${summary.imported} items, ${summary.duplicates} were already there` +
          ` (${byType.sticker} stickers, ${byType.gif} GIFs, ${byType.text} animated text) in ${(summary.ms / 1000).toFixed(1)} s.`,
      ];
      if (summary.failed.length > 0) {
        lines.push('', `${summary.failed.length} could not be made:`);
        for (const failure of summary.failed) lines.push(`  ${failure.key}: ${failure.reason}`);
      }
      return lines.join('\n');
    }
  }
}

async function run(args: string[]): Promise<number> {
  const { values } = parseCommandArgs(seedCommand.usage, {
    args,
    options: { force: { type: 'boolean', default: false } },
  });
  const catalog = await openCatalog();
  // As the import does: items appear with their tiles, the other renditions are jobs made
  // before we exit (docs/catalog.md, "Jobs").
  const jobs = createJobQueue({ database: catalog.database, log: catalog.log });
  try {
    await jobs.start();
    const bar = createProgressBar('Seeding {bar} {value}/{total}');
    let isBarStarted = false;
    const summary = await seedStarterCatalog(
      { config: catalog.config, database: catalog.database, media: catalog.media, jobs },
      {
        isForced: values.force,
        onProgress: (done, total) => {
          if (!isBarStarted) bar.start(total, 0);
          isBarStarted = true;
          bar.update(done);
        },
      },
    );
    if (isBarStarted) bar.stop();
    console.log(formatSeedSummary(summary));
    await makeRemainingRenditions({
      config: catalog.config,
      database: catalog.database,
      media: catalog.media,
      jobs,
      log: catalog.log,
    });
    return summary.status === 'busy' || summary.failed.length > 0 ? 1 : 0;
  } finally {
    await jobs.stop();
    await catalog.close();
  }
}

export const seedCommand: CliCommand = {
  summary: `Create the starter catalog (v${STARTER_CATALOG_VERSION}) unless it is already there`,
  usage: 'npm run sticky -- seed [--force]',
  run,
};
