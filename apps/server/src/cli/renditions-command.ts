import { resolveFfmpegPath } from '../catalog/import/encode-video.ts';
import {
  makeRemainingRenditions,
  queueMissingRenditions,
} from '../catalog/import/later-renditions.ts';
import type { MissingRenditionsSummary } from '../catalog/import/later-renditions.ts';
import { createJobQueue } from '../jobs/job-queue.ts';
import type { CliCommand } from './cli-command.ts';
import { createProgressBar, parseCommandArgs } from './cli-command.ts';
import { openCatalog } from './open-catalog.ts';

export function formatMissingSummary(summary: MissingRenditionsSummary): string {
  if (summary.queued === 0) {
    return `Read ${summary.items} items: every one has all its renditions; nothing to do.`;
  }
  return (
    `Read ${summary.items} items: ${summary.queued} lacked ${summary.renditions} renditions` +
    ' between them, queued to be made.'
  );
}

async function run(args: string[]): Promise<number> {
  const { values } = parseCommandArgs(renditionsCommand.usage, {
    args,
    options: { 'queue-only': { type: 'boolean', default: false } },
  });
  const catalog = await openCatalog();
  const jobs = createJobQueue({ database: catalog.database, log: catalog.log });
  try {
    await jobs.start();
    const summary = await queueMissingRenditions(
      { database: catalog.database, jobs },
      { canMakeVideo: resolveFfmpegPath() !== undefined },
    );
    console.log(formatMissingSummary(summary));
    if (values['queue-only'] || summary.queued === 0) return 0;
    const bar = createProgressBar('Making renditions {bar} {value}/{total} items', {
      clearOnComplete: false,
    });
    bar.start(summary.queued, 0);
    await makeRemainingRenditions(
      {
        config: catalog.config,
        database: catalog.database,
        media: catalog.media,
        jobs,
        log: catalog.log,
      },
      { onProgress: (left) => bar.update(Math.max(0, summary.queued - left)) },
    );
    bar.stop();
    return 0;
  } finally {
    await jobs.stop();
    await catalog.close();
  }
}

export const renditionsCommand: CliCommand = {
  summary: 'Make the renditions items lack (after an upgrade that adds some)',
  usage:
    'npm run sticky -- renditions [--queue-only]\n' +
    '  --queue-only  queue the jobs for a running server to make, and exit',
  run,
};
