// `npm run bench`: search and browse at scale, page weight and speed, import, search quality.
// Writes bench/results/<date>-<section>.json and rewrites bench/README.md. See bench/README.md.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runChatBench } from './chat/index.ts';
import { runImportBench, textPhrases } from './import/index.ts';
import { compareImports, importWithBaseline, prepareBaseline } from './lib/baseline.ts';
import type { Baseline, BaselineImport, ImportBeforeAfter } from './lib/baseline.ts';
import { log } from './lib/log.ts';
import { currentLoadAverage, describeMachine } from './lib/machine.ts';
import { gifsDir, repoRoot, resultsDir, sharedDir, webDistDir } from './lib/paths.ts';
import { runQualityBench } from './quality/index.ts';
import { writeReadme } from './report.ts';
import { runSearchBench } from './search/index.ts';
import { runUploadsBench } from './uploads/index.ts';
import { runWebBench } from './web/index.ts';
import { sectionNames } from './lib/sections.ts';
import type { SectionFile, SectionName } from './lib/sections.ts';

const usage = `Usage: npm run bench -- [--quick] [--only quality,import,web,search,uploads,chat] [--sizes 10000,100000,1000000] [--no-build] [--no-lighthouse | --lighthouse] [--baseline <git ref>]

  --quick          a small version: 10k items, 4 files, no Lighthouse (under 3 minutes)
  --only           the sections to run, comma-separated (default: all)
  --sizes          catalog sizes for the search section (default 10000,100000,1000000)
  --no-build       reuse apps/web/dist when it has a manifest
  --no-lighthouse  skip Lighthouse (--lighthouse runs it even with --quick)
  --baseline REF   also measure another commit in the same run, for before/after figures
                   (import, web and search sections): a work tree of REF in the temporary
                   folder with its own npm ci and web build (about 3 minutes the first time,
                   then reused), its server on a database of its own. E.g. --baseline 9dd097c,
                   the commit issues 15 and 17 measured "today" at.`;

function readGit(args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        quick: { type: 'boolean', default: false },
        only: { type: 'string' },
        sizes: { type: 'string' },
        'no-build': { type: 'boolean', default: false },
        'no-lighthouse': { type: 'boolean', default: false },
        lighthouse: { type: 'boolean', default: false },
        baseline: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    return 64;
  }
  if (values.help) {
    console.log(usage);
    return 0;
  }
  const isQuick = values.quick;
  const only = values.only ? values.only.split(',').map((name) => name.trim()) : [...sectionNames];
  const unknown = only.filter((name) => !(sectionNames as readonly string[]).includes(name));
  if (unknown.length > 0) {
    console.error(`Unknown section ${unknown.join(', ')}.\n${usage}`);
    return 64;
  }
  const sizes = values.sizes
    ? values.sizes.split(',').map((size) => Number(size.replace(/_/g, '')))
    : isQuick
      ? [10_000]
      : [10_000, 100_000, 1_000_000];
  if (sizes.some((size) => !Number.isInteger(size) || size < 100)) {
    console.error(`--sizes takes item counts of 100 or more.\n${usage}`);
    return 64;
  }
  const baselineRef = values.baseline?.trim();
  if (values.baseline !== undefined) {
    if (
      !baselineRef ||
      readGit(['rev-parse', '--verify', '--quiet', `${baselineRef}^{commit}`]) === 'unknown'
    ) {
      console.error(`--baseline ${values.baseline}: not a commit of this repository.\n${usage}`);
      return 64;
    }
  }
  if (!fs.existsSync(path.join(sharedDir, 'data'))) {
    console.error(
      `${sharedDir}/data is missing: the benchmarks read ../shared/data beside the repository.`,
    );
    return 66;
  }

  const mode = isQuick ? 'quick' : 'full';
  const date = new Date().toISOString().slice(0, 10);
  const commit = readGit(['rev-parse', '--short', 'HEAD']);
  // The bench's own output (this README, the results) does not make a run's code dirty.
  const isDirty =
    readGit([
      'status',
      '--porcelain',
      '--untracked-files=no',
      '--',
      '.',
      ':!bench/README.md',
      ':!bench/results',
    ]) !== '';
  const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
  fs.mkdirSync(resultsDir, { recursive: true });
  const written: string[] = [];
  let hasFailed = false;
  let webDataDir: string | undefined;
  let baselineCatalog: BaselineImport | undefined;
  // Another commit, for before and after in the same run (import, web and search sections).
  let baseline: Baseline | undefined;
  const needsBaseline =
    baselineRef && (only.includes('search') || only.includes('web') || only.includes('import'));
  if (needsBaseline) {
    log(`── baseline ${baselineRef}: preparing its work tree`);
    try {
      baseline = prepareBaseline(baselineRef, { hasWeb: only.includes('web') });
    } catch (error) {
      console.error(
        `Could not prepare the baseline ${baselineRef}: ${(error as Error).message.slice(-3000)}`,
      );
      return 1;
    }
    log(`── baseline ${baseline.commit} ready in ${baseline.root}`);
  } else if (baselineRef) {
    log(`--baseline ${baselineRef}: only the import, web and search sections measure a baseline`);
  }

  const runSection = async <T>(section: SectionName, run: () => Promise<T>) => {
    if (!only.includes(section)) return;
    const machine = describeMachine();
    const started = performance.now();
    log(
      `── ${section} (${mode}), load average ${machine.loadAverageAtStart} on ${machine.cores} cores`,
    );
    const file: SectionFile<T> = {
      section,
      mode,
      date,
      commit,
      isDirty,
      command,
      seconds: 0,
      machine,
    };
    try {
      file.result = await run();
    } catch (error) {
      hasFailed = true;
      file.error = error instanceof Error ? (error.stack ?? error.message) : String(error);
      log(`${section} failed: ${file.error}`);
    }
    file.seconds = Math.round((performance.now() - started) / 100) / 10;
    file.machine.loadAverageAtEnd = currentLoadAverage();
    const name = `${date}-${isQuick ? 'quick-' : ''}${section}.json`;
    const target = path.join(resultsDir, name);
    fs.writeFileSync(`${target}.tmp`, `${JSON.stringify(file, null, 2)}\n`);
    fs.renameSync(`${target}.tmp`, target);
    written.push(path.relative(repoRoot, target));
    log(`── ${section} done in ${file.seconds} s → ${path.relative(repoRoot, target)}`);
  };

  try {
    await runSection('quality', () => runQualityBench({ emojiEvery: isQuick ? 5 : 1 }));

    // The web benchmark shows the catalog the import made (2 workers), so import runs first.
    const quickFiles = fs
      .readdirSync(gifsDir)
      .filter((name) => /^(vhs|loadingio|testsuite|wuffs)-.*\.(gif|webp)$/.test(name))
      .sort()
      .slice(0, 4)
      .map((name) => path.join(gifsDir, name));
    const needsImport = only.includes('import') || only.includes('web');
    const importBaselineCatalog = (of: Baseline) =>
      importWithBaseline(of, isQuick ? quickFiles : [gifsDir], {
        workers: 2,
        timeoutMs: isQuick ? 300_000 : 1_500_000,
      });
    if (needsImport) {
      await runSection('import', async () => {
        const { result, keptDataDir } = await runImportBench({
          inputs: isQuick ? quickFiles : [gifsDir],
          // 2 workers first: the web benchmark shows that catalog. Then, for before/after in
          // one run, every rendition up front as before the job queue (2 workers).
          workerCounts: [2, 1],
          upFrontWorkerCounts: [2],
          phrases: isQuick ? textPhrases.slice(0, 2) : textPhrases,
          timeoutMs: isQuick ? 300_000 : 1_500_000,
          keepWorkers: only.includes('web') ? 2 : undefined,
        });
        webDataDir = keptDataDir;
        if (!baseline) return result;
        // The same files through the baseline's own CLI, after ours: its code made every
        // rendition before an item was visible. Its catalog is then the web section's too.
        let beforeAfter: ImportBeforeAfter | undefined;
        let baselineError: string | undefined;
        try {
          baselineCatalog = await importBaselineCatalog(baseline);
          const ours = result.runs.find((run) => run.workers === 2 && run.mode === 'ready-first');
          if (!ours) throw new Error('no run of this commit with 2 workers to compare with');
          beforeAfter = compareImports(baseline.commit, baselineCatalog, ours);
          log(
            `import: before/after, 2 workers until every item is visible: ${baseline.commit} ${beforeAfter.before.filesPerSecond} files/s; this commit ${beforeAfter.after.filesPerSecond} files/s (${beforeAfter.speedup}×)`,
          );
        } catch (error) {
          baselineError = (error as Error).message.slice(0, 2000);
          log(`import: no before/after: ${baselineError}`);
        }
        if (!only.includes('web') && baselineCatalog) {
          fs.rmSync(baselineCatalog.dataDir, { recursive: true, force: true });
          baselineCatalog = undefined;
        }
        return { ...result, beforeAfter, baselineError };
      });
      if (!only.includes('import') && !webDataDir) {
        // --only web: the import still has to make a catalog to show.
        const { keptDataDir } = await runImportBench({
          inputs: isQuick ? quickFiles : [gifsDir],
          workerCounts: [2],
          phrases: [],
          timeoutMs: 1_200_000,
          keepWorkers: 2,
        });
        webDataDir = keptDataDir;
      }
    }

    // Signed /sticky commands beside /healthz and /v1 search (issue 45; docs/integrations.md).
    await runSection('chat', () =>
      runChatBench({
        sizes,
        durationSeconds: isQuick ? 3 : 10,
        warmupSeconds: isQuick ? 1 : 3,
        wordCount: isQuick ? 20 : 60,
      }),
    );

    await runSection('uploads', () =>
      runUploadsBench({ latencyRuns: isQuick ? 3 : 7, throughputFiles: isQuick ? 20 : undefined }),
    );

    await runSection('web', async () => {
      if (!webDataDir) throw new Error('the import made no catalog to show');
      const hasManifest = fs.existsSync(path.join(webDistDir, '.vite', 'manifest.json'));
      let baselineError: string | undefined;
      if (baseline && !baselineCatalog) {
        // The same files through the baseline's own import (its CLI), on its own schema; a
        // failure there leaves this commit's figures without a "before", not without figures.
        try {
          baselineCatalog = await importBaselineCatalog(baseline);
        } catch (error) {
          baselineError = (error as Error).message.slice(0, 2000);
          log(`web: no before/after: ${baselineError}`);
        }
      }
      const result = await runWebBench({
        dataDir: webDataDir,
        build: !values['no-build'] || !hasManifest,
        lighthouse: values.lighthouse || (!values['no-lighthouse'] && !isQuick),
        firstPageItems: 25,
        baseline: baseline && baselineCatalog ? { baseline, catalog: baselineCatalog } : undefined,
      });
      return baselineError ? { ...result, baselineError } : result;
    });

    await runSection('search', () =>
      runSearchBench(
        isQuick
          ? {
              baseline,
              sizes,
              durationSeconds: 2,
              warmupSeconds: 1,
              queryCount: 30,
              rawSamples: 30,
              rawBudgetSeconds: 5,
            }
          : {
              baseline,
              sizes,
              durationSeconds: 8,
              warmupSeconds: 2,
              queryCount: 120,
              rawSamples: 120,
              rawBudgetSeconds: 25,
            },
      ),
    );
  } finally {
    if (webDataDir) fs.rmSync(webDataDir, { recursive: true, force: true });
    if (baselineCatalog) fs.rmSync(baselineCatalog.dataDir, { recursive: true, force: true });
  }

  const readme = await writeReadme();
  log(`wrote ${written.join(', ')} and ${path.relative(repoRoot, readme)}`);
  return hasFailed ? 1 : 0;
}

process.exitCode = await main();
