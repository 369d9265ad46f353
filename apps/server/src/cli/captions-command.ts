import { countUnreadCaptions, readUnreadCaptions } from '../catalog/captions/caption-job.ts';
import type { UnreadCaptionsSummary } from '../catalog/captions/caption-job.ts';
import type { CliCommand } from './cli-command.ts';
import { createProgressBar, parseCommandArgs } from './cli-command.ts';
import { openCatalog } from './open-catalog.ts';

export function formatCaptionsSummary(summary: UnreadCaptionsSummary, left: number): string {
  if (summary.read === 0 && left === 0) return 'Every item’s text is read; nothing to do.';
  const sorted = [...summary.cpuMs].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  const rest = left > 0 ? ` ${left} left: run it again to go on.` : '';
  return (
    `Read the text of ${summary.read} items: ${summary.withText} have some` +
    ` (median ${(median / 1000).toFixed(2)} CPU s an item).${rest}`
  );
}

async function run(args: string[]): Promise<number> {
  parseCommandArgs(captionsCommand.usage, { args, options: {} });
  const catalog = await openCatalog();
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  try {
    const total = await countUnreadCaptions(catalog.database);
    const bar = createProgressBar('Reading text {bar} {value}/{total} items', {
      clearOnComplete: false,
    });
    if (total > 0) bar.start(total, 0);
    const summary = await readUnreadCaptions(
      { database: catalog.database, media: catalog.media },
      { signal: stop.signal, onItemDone: (done) => bar.update(done) },
    );
    if (total > 0) bar.stop();
    console.log(formatCaptionsSummary(summary, await countUnreadCaptions(catalog.database)));
    return 0;
  } finally {
    process.off('SIGINT', onSignal);
    await catalog.close();
  }
}

export const captionsCommand: CliCommand = {
  summary: 'Read the text inside the items not read yet (resumable)',
  usage: 'npm run sticky -- captions\n  Ctrl-C stops; the next run goes on where it stopped.',
  run,
};
