import fs from 'node:fs';
import path from 'node:path';
import * as prettier from 'prettier';
import type { ImportBenchResult } from './import/index.ts';
import type { ImportBeforeAfter } from './lib/baseline.ts';
import type { MachineInfo } from './lib/machine.ts';
import { benchDir, resultsDir } from './lib/paths.ts';
import type { QualityResult, QualityScore } from './quality/index.ts';
import type { SectionFile, SectionName } from './lib/sections.ts';
import type { BeforeAfter, EndpointName, SearchBenchResult, SizeResult } from './search/index.ts';
import type { ChatBenchResult } from './chat/index.ts';
import { chatTargets } from './chat/index.ts';
import type { UploadBenchResult } from './uploads/index.ts';
import type { LighthouseRun, PageWeight, WebBenchResult } from './web/index.ts';
import { webTargets } from './web/index.ts';

const sections: SectionName[] = ['search', 'web', 'import', 'uploads', 'chat', 'quality'];

/**
 * The commit issues 15 and 17 took their "today" figures at: targets stated as a share of
 * "before" are judged against it, not against whatever baseline a later run compared with.
 */
const issueBaseline = '9dd097c';

/**
 * The newest results file of a section (a full run beats a quick one of the same day), of
 * those `isWanted` accepts when given.
 */
function latest<T>(
  section: SectionName,
  isWanted: (data: SectionFile<T>) => boolean = () => true,
): { file: string; data: SectionFile<T> } | undefined {
  if (!fs.existsSync(resultsDir)) return undefined;
  const files = fs
    .readdirSync(resultsDir)
    .filter((name) => name.endsWith(`-${section}.json`))
    .map((name) => {
      const data = JSON.parse(
        fs.readFileSync(path.join(resultsDir, name), 'utf8'),
      ) as SectionFile<T>;
      return { file: name, data };
    })
    .filter(({ data }) => isWanted(data))
    .sort(
      (a, b) =>
        a.data.date.localeCompare(b.data.date) ||
        (a.data.mode === b.data.mode ? 0 : a.data.mode === 'full' ? 1 : -1),
    );
  return files.at(-1);
}

const fmtMs = (ms: number | null | undefined) => {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '–';
  if (ms >= 100) return `${Math.round(ms)}`;
  if (ms >= 10) return ms.toFixed(1);
  return ms.toFixed(2);
};
const fmtRatio = (value: number | null | undefined, digits = 2) =>
  value === null || value === undefined || !Number.isFinite(value)
    ? '–'
    : `${value.toFixed(digits)}×`;
/** Text from pages (HTML snippets, messages) shown as text, not markup. */
const escapeMarkdown = (text: string) =>
  text
    .replace(/</g, '&lt;')
    .replace(/[|*_\\[\]]/g, (character) => `\\${character}`)
    .replace(/`/g, "'");
const fmtKb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * The tiles that weigh most on a page, each with what it showed (file type and bytes) beside
 * its original: where a ratio comes from, as a tile-by-tile look found (bench/notes.md).
 */
function describeHeaviestTiles(w: PageWeight, count = 5): string {
  if (!w.tiles?.length) return '';
  const weighed = w.tiles
    .map((tile) => ({ ...tile, bytes: tile.files.reduce((sum, file) => sum + file.bytes, 0) }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, count);
  const shown = weighed.map((tile) => {
    const files = tile.files
      .map((file) => `${file.path.split('.').pop()} ${fmtKb(file.bytes)}`)
      .join(' + ');
    return `${tile.item} ${files} (original ${fmtKb(tile.originalBytes)})`;
  });
  const share = weighed.reduce((sum, tile) => sum + tile.bytes, 0) / (w.mediaBytes || 1);
  return ` The ${weighed.length} heaviest tiles, ${Math.round(share * 100)} % of the images: ${shown.join('; ')}.`;
}
const fmtMb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;
const fmtInt = (value: number) => Math.round(value).toLocaleString('en');
const fmtItems = (items: number) =>
  items >= 1_000_000 ? `${items / 1_000_000}M` : items >= 1000 ? `${items / 1000}k` : `${items}`;
const failed = (failures: number) => (failures > 0 ? ` (${fmtInt(failures)} failed)` : '');
const mark = (isMet: boolean | undefined) =>
  isMet === undefined ? '–' : isMet ? '✅ met' : '❌ missed';

function table(header: string[], rows: Array<Array<string | number>>): string {
  const line = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

function describeRun(data: SectionFile): string {
  const machine: MachineInfo = data.machine;
  return (
    `${data.mode} run of ${data.date}, commit ${data.commit}${data.isDirty ? ' (with uncommitted changes by others in the tree)' : ''}, ` +
    `${data.seconds} s; load average ${machine.loadAverageAtStart} → ${machine.loadAverageAtEnd ?? '?'} on ${machine.cores} cores`
  );
}

const endpointLabels: Record<EndpointName, string> = {
  search: '`/v1/gifs/search`',
  trending: '`/v1/gifs/trending`',
  ids: '`/v1/gifs?ids=` (25 ids)',
  related: '`/v1/gifs/related`',
};

function searchSection(entry: { data: SectionFile<SearchBenchResult> } | undefined): {
  text: string;
  targets: string[][];
} {
  if (!entry) return { text: '_Not run yet._', targets: [] };
  const { data } = entry;
  if (!data.result)
    return { text: `_Failed: ${data.error?.split('\n')[0]}_ (${describeRun(data)})`, targets: [] };
  const result = data.result;
  const parts: string[] = [`_${describeRun(data)}._`];
  for (const size of result.sizes) {
    const b = size.baseline;
    parts.push(
      `#### ${fmtInt(size.items)} items (${fmtInt(size.renditions)} renditions; built in ${size.buildSeconds} s${size.relatedListsSeconds === undefined ? '' : `, related lists ${size.relatedListsSeconds} s of it`})\n\n` +
        table(
          [
            'endpoint',
            'c=1 p50 / p95 / p99 ms',
            'raw SQL p50 / p99 ms',
            'HTTP ÷ SQL (p50, p99)',
            'c=1 req/s',
            'c=32 p50 / p95 / p99 ms',
            'c=32 req/s',
            'req/s ÷ `/healthz`',
          ],
          [
            [
              '`/healthz` (floor: no database)',
              `${fmtMs(b.c1.latencyMs.p50)} / ${fmtMs(b.c1.latencyMs.p95)} / ${fmtMs(b.c1.latencyMs.p99)}`,
              `SELECT 1: ${fmtMs(b.selectOneMs.p50)} / ${fmtMs(b.selectOneMs.p99)}`,
              '–',
              fmtInt(b.c1.requestsPerSecond),
              `${fmtMs(b.c32.latencyMs.p50)} / ${fmtMs(b.c32.latencyMs.p95)} / ${fmtMs(b.c32.latencyMs.p99)}`,
              fmtInt(b.c32.requestsPerSecond),
              '1.00×',
            ],
            ...(Object.keys(endpointLabels) as EndpointName[]).map((name) => {
              const e = size.endpoints[name];
              return [
                endpointLabels[name],
                `${fmtMs(e.http.c1.latencyMs.p50)} / ${fmtMs(e.http.c1.latencyMs.p95)} / ${fmtMs(e.http.c1.latencyMs.p99)}`,
                `${fmtMs(e.raw.sqlMs.p50)} / ${fmtMs(e.raw.sqlMs.p99)}`,
                `${fmtRatio(e.httpOverSqlP50)}, ${fmtRatio(e.httpOverSqlP99)}`,
                fmtInt(e.http.c1.requestsPerSecond) + failed(e.http.c1.failures),
                `${fmtMs(e.http.c32.latencyMs.p50)} / ${fmtMs(e.http.c32.latencyMs.p95)} / ${fmtMs(e.http.c32.latencyMs.p99)}`,
                fmtInt(e.http.c32.requestsPerSecond) + failed(e.http.c32.failures),
                fmtRatio(e.http.c32.requestsPerSecond / b.c32.requestsPerSecond, 3),
              ];
            }),
            ...(['search', 'related'] as const).flatMap((name) => {
              const cold = size.endpoints[name].cold;
              if (!cold) return [];
              const what =
                name === 'search'
                  ? `each query once, no kept ranking (${cold.requests} queries)`
                  : `each item once, no kept related ids (${cold.requests} items)`;
              const first = cold.firstPass;
              return [
                [
                  `${endpointLabels[name]}, cold: ${what}`,
                  `${fmtMs(cold.httpMs.p50)} / ${fmtMs(cold.httpMs.p95)} / ${fmtMs(cold.httpMs.p99)}`,
                  `${fmtMs(cold.sqlMs.p50)} / ${fmtMs(cold.sqlMs.p99)}`,
                  `${fmtRatio(cold.httpOverSqlP50)}, ${fmtRatio(cold.httpOverSqlP99)}`,
                  '–',
                  '–',
                  '–',
                  '–',
                ],
                ...(first
                  ? [
                      [
                        `${endpointLabels[name]}, cold, first pass (servers just started; not judged)`,
                        `${fmtMs(first.httpMs.p50)} / ${fmtMs(first.httpMs.p95)} / ${fmtMs(first.httpMs.p99)}`,
                        `${fmtMs(first.sqlMs.p50)} / ${fmtMs(first.sqlMs.p99)}`,
                        '–',
                        '–',
                        '–',
                        '–',
                        '–',
                      ],
                    ]
                  : []),
              ];
            }),
          ],
        ),
    );
    if (size.beforeAfter) parts.push(beforeAfterSearchTable(size.beforeAfter, data.commit));
  }
  const first = result.sizes[0]!;
  const last = result.sizes.at(-1)!;
  if (result.sizes.length > 1) {
    parts.push(
      `#### Growth from ${fmtItems(first.items)} to ${fmtItems(last.items)} items (${fmtRatio(last.items / first.items, 0)} the rows)\n\n` +
        table(
          [
            'endpoint',
            ...result.sizes.map((s) => `p50 at ${fmtItems(s.items)}`),
            'p50 growth',
            'p99 growth',
            'raw SQL p50 growth',
            'c=32 req/s growth',
          ],
          (Object.keys(endpointLabels) as EndpointName[]).map((name) => [
            endpointLabels[name],
            ...result.sizes.map((s) => `${fmtMs(s.endpoints[name].http.c1.latencyMs.p50)} ms`),
            fmtRatio(result.growth[name].p50),
            fmtRatio(result.growth[name].p99),
            fmtRatio(result.growth[name].sqlP50),
            fmtRatio(result.growth[name].rpsC32),
          ]),
        ),
    );
  }
  parts.push(
    'Mixes: ' +
      (Object.keys(endpointLabels) as EndpointName[])
        .map((name) => `${endpointLabels[name]}: ${first.endpoints[name].mix}`)
        .join('; ') +
      ". The EXPLAIN (ANALYZE, BUFFERS) of each mix's slowest statement is in the results file (`slowestPlan`).",
  );
  return { text: parts.join('\n\n'), targets: searchTargets(result.sizes) };
}

/**
 * Issue 15's targets, judged at 1M items (cold: each path once, c=1), with the 100k figures
 * beside them in the same row, not judged.
 */
function searchTargets(sizes: readonly SizeResult[]): string[][] {
  const judged = sizes.find((size) => size.items === 1_000_000);
  const beside = sizes.find((size) => size.items === 100_000);
  // A run without 1M (or 100k) shows its largest size instead, not judged.
  const shown = [judged, beside ?? (judged ? undefined : sizes.at(-1))].filter(
    (size): size is SizeResult => size !== undefined,
  );
  const rows: Array<{
    label: string;
    limit: string;
    value: number;
    isAtMost: boolean;
    read: (size: SizeResult) => number | undefined;
    format: (value: number) => string;
  }> = [
    {
      label: 'search p50, c=1, cold (each query once)',
      limit: '≤ 10 ms',
      value: 10,
      isAtMost: true,
      read: (size) => size.endpoints.search.cold?.httpMs.p50,
      format: (value) => `${fmtMs(value)} ms`,
    },
    {
      label: 'search p99, c=1, cold (each query once)',
      limit: '≤ 40 ms',
      value: 40,
      isAtMost: true,
      read: (size) => size.endpoints.search.cold?.httpMs.p99,
      format: (value) => `${fmtMs(value)} ms`,
    },
    {
      label: 'search HTTP ÷ SQL (p50), cold',
      limit: '≤ 1.3',
      value: 1.3,
      isAtMost: true,
      read: (size) => size.endpoints.search.cold?.httpOverSqlP50,
      format: (value) => fmtRatio(value),
    },
    {
      label: 'related p50, c=1, cold (each item once)',
      limit: '≤ 10 ms',
      value: 10,
      isAtMost: true,
      read: (size) => size.endpoints.related.cold?.httpMs.p50,
      format: (value) => `${fmtMs(value)} ms`,
    },
    {
      label: 'trending req/s at c=32',
      limit: '≥ 3,000',
      value: 3000,
      isAtMost: false,
      read: (size) => size.endpoints.trending.http.c32.requestsPerSecond,
      format: (value) => fmtInt(value),
    },
  ];
  return rows.map((row) => {
    const measured = shown
      .map((size) => {
        const value = row.read(size);
        return `${fmtItems(size.items)}: ${value === undefined ? 'not measured' : row.format(value)}`;
      })
      .join(' · ');
    const value = judged ? row.read(judged) : undefined;
    return [
      `${row.label}, at 1M (100k beside it, not judged)`,
      row.limit,
      judged ? measured : `not measured at 1M; ${measured}`,
      value === undefined ? '–' : fmtRatio(value / row.value),
      value === undefined ? '–' : mark(row.isAtMost ? value <= row.value : value >= row.value),
    ];
  });
}

/** The baseline's server (before) and ours (after) on the same catalog, same run. */
function beforeAfterSearchTable(comparison: BeforeAfter, commit: string): string {
  const latencyRows = (name: 'search' | 'related', what: string) => {
    const figure = comparison[name];
    const failures =
      figure.beforeFailures > 0 ? ` (${fmtInt(figure.beforeFailures)} failed before)` : '';
    return (['p50', 'p95', 'p99'] as const).map((percentile) => [
      `${endpointLabels[name]}, cold, c=1, ${percentile} (${figure.requests} ${what})${failures}`,
      `${fmtMs(figure.before[percentile])} ms`,
      `${fmtMs(figure.after[percentile])} ms`,
      fmtRatio(figure.after[percentile] / figure.before[percentile], 3),
    ]);
  };
  const loadRows = (name: 'trending' | 'related', loads: BeforeAfter['trendingC32']) => [
    [
      `${endpointLabels[name]}, c=32, req/s${failed(loads.before.failures + loads.after.failures)}`,
      fmtInt(loads.before.requestsPerSecond),
      fmtInt(loads.after.requestsPerSecond),
      fmtRatio(loads.after.requestsPerSecond / loads.before.requestsPerSecond, 3),
    ],
    [
      `${endpointLabels[name]}, c=32, p99`,
      `${fmtMs(loads.before.latencyMs.p99)} ms`,
      `${fmtMs(loads.after.latencyMs.p99)} ms`,
      fmtRatio(loads.after.latencyMs.p99 / loads.before.latencyMs.p99, 3),
    ],
  ];
  return (
    `**Before and after**: ${comparison.commit}'s server (before) and this commit's, ${commit} (after), each on its own database holding the same catalog, asked in turn ` +
    `(cold: each path once, right after moving that server's \`catalog_version\`, after a first pass of the same paths that is not judged; trending${comparison.relatedC32 ? ' and related' : ''}: rounds of the mix at c=32 taken in turns, ours, before, before, ours):\n\n` +
    table(
      ['figure', `before (${comparison.commit})`, `after (${commit})`, 'after ÷ before'],
      [
        ...latencyRows('search', 'queries'),
        ...latencyRows('related', 'items'),
        ...loadRows('trending', comparison.trendingC32),
        ...(comparison.relatedC32 ? loadRows('related', comparison.relatedC32) : []),
      ],
    )
  );
}

function lighthouseRow(
  run: LighthouseRun | { page: string; error: string },
): Array<string | number> {
  if ('error' in run) return [run.page, `failed: ${run.error.split('\n')[0]}`, '', '', '', '', ''];
  return [
    `\`${run.page}\`${run.isSignedIn ? ' (signed in)' : ''}`,
    run.scores.performance ?? '–',
    run.scores.accessibility ?? '–',
    run.scores.bestPractices ?? '–',
    `${fmtMs(run.metricsMs.lcp)} ms`,
    fmtRatio(run.lcpOverFloor),
    `FCP ${fmtMs(run.metricsMs.fcp)} ms, TBT ${fmtMs(run.metricsMs.tbt)} ms, CLS ${run.cls?.toFixed(3) ?? '–'}`,
  ];
}

function webSection(entry: { data: SectionFile<WebBenchResult> } | undefined): {
  text: string;
  targets: string[][];
} {
  if (!entry) return { text: '_Not run yet._', targets: [] };
  const { data } = entry;
  if (!data.result)
    return { text: `_Failed: ${data.error?.split('\n')[0]}_ (${describeRun(data)})`, targets: [] };
  const r = data.result;
  const parts: string[] = [`_${describeRun(data)}._`];
  parts.push(
    '**Initial JS and CSS per route** (gzip -9 of the built files; "loaded" is what Chromium fetched until the network was idle, ' +
      '"manifest" the entry\'s and the route module\'s static imports per `apps/web/dist/.vite/manifest.json`; ' +
      `framework floor: ${r.frameworkFloor ? fmtKb(r.frameworkFloor.gzipBytes) : '–'}, what React, React DOM, React Router and TanStack Query alone weigh rendering one paragraph, built by the same Vite):\n\n` +
      table(
        [
          'route',
          'loaded JS gzip',
          'JS ÷ 120 KB',
          'JS ÷ framework floor',
          'loaded CSS gzip',
          'manifest JS gzip',
          'manifest CSS gzip',
          'JS + CSS on the wire',
          'largest chunks (gzip)',
        ],
        r.loaded.map((route) => {
          const manifest = r.routes.find((entry) => entry.route === route.route);
          return [
            `\`${route.url}\`${route.isSignedIn ? ' (signed in)' : ''}`,
            fmtKb(route.jsGzipBytes),
            fmtRatio(route.jsGzipOverTarget),
            r.frameworkFloor ? fmtRatio(route.jsGzipBytes / r.frameworkFloor.gzipBytes) : '–',
            fmtKb(route.cssGzipBytes),
            manifest ? fmtKb(manifest.jsGzipBytes) : '–',
            manifest ? fmtKb(manifest.cssGzipBytes) : '–',
            fmtKb(route.jsCssTransferredBytes),
            route.js
              .slice(0, 3)
              .map((asset) => `${asset.source.split(',')[0]} ${fmtKb(asset.gzipBytes)}`)
              .join('; '),
          ];
        }),
      ),
  );
  for (const w of r.pageWeights ?? []) {
    parts.push(
      `**Home page \`${w.url}\`, first ${w.items} items** (signed in, ${w.viewport.width}×${w.viewport.height}, Chromium network log, bytes on the wire incl. headers):\n\n` +
        table(
          ['what', 'bytes', '÷ originals'],
          [
            ['images of those items', fmtKb(w.mediaBytes), fmtRatio(w.mediaOverOriginals, 3)],
            [
              'everything (document, JS, CSS, API, images)',
              fmtKb(w.totalBytes),
              fmtRatio(w.totalOverOriginals, 3),
            ],
            ['their original files', fmtKb(w.originalBytes), '1.000×'],
          ],
        ) +
        `\n\nBy kind: ${Object.entries(w.byKind)
          .map(([kind, bytes]) => `${kind} ${fmtKb(bytes)}`)
          .join(', ')}; ${w.requests} requests.` +
        describeHeaviestTiles(w),
    );
  }
  const lh = r.lighthouse;
  if (lh.runs.length > 0) {
    const floor = lh.floor;
    parts.push(
      `**Lighthouse** (${lh.preset}; ${lh.chromium}; LCP ÷ floor = LCP over that of a one-heading page in the same run):\n\n` +
        table(
          ['page', 'performance', 'accessibility', 'best practices', 'LCP', 'LCP ÷ floor', 'other'],
          [
            ...('error' in floor ? [] : [lighthouseRow({ ...floor, page: 'floor page' })]),
            ...lh.runs.map(lighthouseRow),
          ],
        ),
    );
    const failing = lh.runs.flatMap((run) =>
      'error' in run
        ? []
        : Object.entries(run.failing).flatMap(([category, audits]) =>
            audits.map(
              (audit) =>
                `\`${run.page}\` ${category}: ${audit.title} (${audit.score}${audit.displayValue ? `, ${audit.displayValue}` : ''})` +
                (audit.examples?.length
                  ? `: ${audit.examples.map((example) => `“${escapeMarkdown(example)}”`).join(', ')}`
                  : ''),
            ),
          ),
    );
    if (failing.length > 0) parts.push(`Audits below 0.9: ${failing.join('; ')}.`);
  } else {
    parts.push('**Lighthouse**: not run (`--quick` or `--no-lighthouse`).');
  }
  if (r.beforeAfter) parts.push(beforeAfterWebTable(r, data.commit));
  if (r.baselineError) {
    parts.push(`No before/after: ${escapeMarkdown(r.baselineError.split('\n')[0] ?? '')}.`);
  }
  const targets: string[][] = [];
  const worstJs = [...r.loaded].sort((a, b) => b.jsGzipBytes - a.jsGzipBytes)[0];
  for (const route of r.loaded.filter((entry) => entry.url === '/' || entry.url === '/landing')) {
    targets.push([
      `initial JS gzip, \`${route.url}\``,
      '≤ 120 KB',
      fmtKb(route.jsGzipBytes),
      fmtRatio(route.jsGzipOverTarget),
      mark(route.jsGzipBytes <= webTargets.initialJsGzipBytes),
    ]);
  }
  if (worstJs && worstJs.url !== '/' && worstJs.url !== '/landing') {
    targets.push([
      `initial JS gzip, heaviest route \`${worstJs.url}\``,
      '≤ 120 KB',
      fmtKb(worstJs.jsGzipBytes),
      fmtRatio(worstJs.jsGzipOverTarget),
      mark(worstJs.jsGzipBytes <= webTargets.initialJsGzipBytes),
    ]);
  }
  // "÷ the baseline's" is issue 17's target against its "today": from this run when it compared
  // with that commit, else from the newest run that did, named beside its figure.
  const judged =
    r.beforeAfter?.commit === issueBaseline
      ? { result: r, run: undefined }
      : (() => {
          const entry = latest<WebBenchResult>(
            'web',
            (other) => other.result?.beforeAfter?.commit === issueBaseline,
          );
          return entry?.data.result
            ? { result: entry.data.result, run: `${entry.data.mode} ${entry.data.date} run` }
            : undefined;
        })();
  const comparison = judged?.result.beforeAfter;
  const weightsOf = (url: string) => ({
    after: judged?.result.pageWeights.find((entry) => entry.url === url),
    before: comparison?.pageWeights.find((entry) => entry.url === url),
  });
  for (const w of r.pageWeights ?? []) {
    targets.push([
      `first-screen image bytes ÷ originals, \`${w.url}\` (${w.items} items)`,
      `≤ ${webTargets.firstPageOverOriginals}`,
      `${fmtKb(w.mediaBytes)} of ${fmtKb(w.originalBytes)}`,
      fmtRatio(w.mediaOverOriginals / webTargets.firstPageOverOriginals),
      mark(w.mediaOverOriginals <= webTargets.firstPageOverOriginals),
    ]);
    // Per byte of original, so the figure holds should the two servers show other items.
    const { after, before } = weightsOf(w.url);
    const overBefore =
      after && before ? after.mediaOverOriginals / before.mediaOverOriginals : Number.NaN;
    targets.push([
      `first-screen image bytes ÷ the baseline's, \`${w.url}\` (per byte of original)`,
      `≤ ${webTargets.firstPageOverBaseline}`,
      after && before
        ? `${fmtKb(after.mediaBytes)} vs ${fmtKb(before.mediaBytes)} at ${issueBaseline}: ${fmtRatio(overBefore, 3)}${judged?.run ? ` (${judged.run})` : ''}`
        : `no run with \`--baseline ${issueBaseline}\``,
      after && before ? fmtRatio(overBefore / webTargets.firstPageOverBaseline) : '–',
      after && before ? mark(overBefore <= webTargets.firstPageOverBaseline) : '–',
    ]);
    targets.push([
      `first-screen bytes, everything ÷ originals, \`${w.url}\``,
      `(≤ ${webTargets.firstPageOverOriginals})`,
      `${fmtKb(w.totalBytes)} of ${fmtKb(w.originalBytes)}`,
      fmtRatio(w.totalOverOriginals / webTargets.firstPageOverOriginals),
      mark(w.totalOverOriginals <= webTargets.firstPageOverOriginals),
    ]);
  }
  for (const run of lh.runs) {
    if ('error' in run) continue;
    const perf = run.scores.performance ?? 0;
    const a11y = run.scores.accessibility ?? 0;
    targets.push([
      `Lighthouse performance \`${run.page}\``,
      `≥ ${webTargets.lighthousePerformance}`,
      String(perf),
      fmtRatio(perf / webTargets.lighthousePerformance),
      mark(perf >= webTargets.lighthousePerformance),
    ]);
    if (run.page === '/') {
      const lcp = run.metricsMs.lcp ?? Number.NaN;
      targets.push([
        `Lighthouse LCP \`${run.page}\` (mobile)`,
        `≤ ${webTargets.lighthouseLcpMs / 1000} s`,
        `${fmtMs(lcp)} ms`,
        fmtRatio(lcp / webTargets.lighthouseLcpMs),
        mark(lcp <= webTargets.lighthouseLcpMs),
      ]);
    }
    targets.push([
      `Lighthouse accessibility \`${run.page}\``,
      '100',
      String(a11y),
      fmtRatio(a11y / 100),
      mark(a11y >= webTargets.lighthouseAccessibility),
    ]);
  }
  if (lh.runs.length === 0) {
    targets.push([
      'Lighthouse performance `/` and `/landing`, LCP `/`',
      `≥ ${webTargets.lighthousePerformance}, ≤ ${webTargets.lighthouseLcpMs / 1000} s`,
      'not run (`--quick` or `--no-lighthouse`)',
      '–',
      '–',
    ]);
  }
  return { text: parts.join('\n\n'), targets };
}

/** The baseline's server (before) and ours (after), each on its catalog of the same files. */
function beforeAfterWebTable(r: WebBenchResult, commit: string): string {
  const comparison = r.beforeAfter!;
  const rows: Array<Array<string | number>> = [];
  const ratioRow = (label: string, before: number, after: number, format: (v: number) => string) =>
    rows.push([label, format(before), format(after), fmtRatio(after / before, 3)]);
  const notes: string[] = [];
  for (const after of r.pageWeights) {
    const before = comparison.pageWeights.find((entry) => entry.url === after.url);
    if (!before) continue;
    const page = `\`${after.url}\`, first ${after.items} items`;
    ratioRow(`${page}: image bytes`, before.mediaBytes, after.mediaBytes, fmtKb);
    ratioRow(
      `${page}: image bytes ÷ originals`,
      before.mediaOverOriginals,
      after.mediaOverOriginals,
      (v) => v.toFixed(3),
    );
    ratioRow(`${page}: everything`, before.totalBytes, after.totalBytes, fmtKb);
    ratioRow(`${page}: their originals`, before.originalBytes, after.originalBytes, fmtKb);
    const shared = (after.itemSha256s ?? []).filter((sha) =>
      before.itemSha256s?.includes(sha),
    ).length;
    notes.push(
      `\`${after.url}\`: ${shared} of the ${after.items} items shown were the same files on both`,
    );
  }
  for (const after of r.lighthouse.runs) {
    const before = comparison.lighthouse.find((entry) => entry.page === after.page);
    if (!before || 'error' in after || 'error' in before) {
      if (before && 'error' in before)
        notes.push(`Lighthouse \`${before.page}\` failed before: ${before.error.split('\n')[0]}`);
      continue;
    }
    ratioRow(
      `Lighthouse \`${after.page}\`: performance`,
      before.scores.performance ?? Number.NaN,
      after.scores.performance ?? Number.NaN,
      String,
    );
    ratioRow(
      `Lighthouse \`${after.page}\`: LCP`,
      before.metricsMs.lcp ?? Number.NaN,
      after.metricsMs.lcp ?? Number.NaN,
      (v) => `${fmtMs(v)} ms`,
    );
  }
  return (
    `**Before and after**: ${comparison.commit}'s server (before) and this commit's, ${commit} (after), the same pages measured in turn; the baseline's catalog is the same files through its own CLI import (“${escapeMarkdown(comparison.import.summary.replace(/\.$/, ''))}”; ${comparison.import.seconds} s until it exited):\n\n` +
    table(
      ['figure', `before (${comparison.commit})`, `after (${commit})`, 'after ÷ before'],
      rows,
    ) +
    (notes.length > 0 ? `\n\n${notes.join('; ')}.` : '')
  );
}

/** The import section's results, with the baseline's CLI beside them (`--baseline`). */
type ImportResults = ImportBenchResult & {
  beforeAfter?: ImportBeforeAfter;
  baselineError?: string;
};

/** Issue 17: import files/s (2 workers, until every item is visible) ≥ 5 × the code before. */
const importSpeedupTarget = 5;
/** Issue 17's "today" (9dd097c, 2 workers), for a run without `--baseline`. */
const importFilesPerSecondBefore = 0.55;

function importTargets(r: ImportResults): string[][] {
  const comparison = r.beforeAfter;
  if (comparison) {
    return [
      [
        `import files/s, ${comparison.workers} workers, until every item is visible, ÷ ${comparison.commit}'s CLI import in the same run`,
        `≥ ${importSpeedupTarget}×`,
        `${comparison.after.filesPerSecond} vs ${comparison.before.filesPerSecond} files/s: ${fmtRatio(comparison.speedup)}`,
        fmtRatio(comparison.speedup / importSpeedupTarget),
        mark(comparison.speedup >= importSpeedupTarget),
      ],
    ];
  }
  const two = r.runs.find((run) => run.workers === 2 && run.mode === 'ready-first');
  const limit = importSpeedupTarget * importFilesPerSecondBefore;
  return [
    [
      `import files/s, 2 workers, until every item is visible (no baseline in this run: ${importSpeedupTarget} × issue 17's ${importFilesPerSecondBefore})`,
      `(≥ ${limit.toFixed(2)})`,
      two ? `${two.filesPerSecond} files/s` : 'not measured',
      two ? fmtRatio(two.filesPerSecond / limit) : '–',
      two ? mark(two.filesPerSecond >= limit) : '–',
    ],
  ];
}

function beforeAfterImportTable(comparison: ImportBeforeAfter, commit: string): string {
  const { before, after } = comparison;
  return (
    `**Before and after**: the same files, ${comparison.workers} workers, ${comparison.commit}'s own CLI (\`npm run sticky -- import\` in its work tree: every rendition made before an item is visible; timed by the CLI itself, as ours is by the import child, without the database's start: it exited after ${before.wallSeconds} s) and this commit's import until every item is visible (${commit}), one after the other in the same run. Peak RSS per worker: the largest of any one decoder process (a worker's), sampled every 100 ms:\n\n` +
    table(
      ['figure', `before (${comparison.commit})`, `after (${commit})`, 'after ÷ before'],
      [
        [
          'files (rejected)',
          `${before.files} (${before.rejected})`,
          `${after.files} (${after.rejected})`,
          '–',
        ],
        [
          'seconds until every item is visible',
          before.seconds,
          after.seconds,
          fmtRatio(after.seconds / before.seconds, 3),
        ],
        [
          '**files/s**',
          before.filesPerSecond,
          after.filesPerSecond,
          `**${fmtRatio(comparison.speedup)}**`,
        ],
        [
          'peak RSS per worker (one decoder)',
          fmtMb(before.peakWorkerRssBytes),
          `${fmtMb(after.peakWorkerRssBytes)} (${fmtMb(after.peakWorkerWithEncodersRssBytes)} with its encoders)`,
          fmtRatio(after.peakWorkerRssBytes / before.peakWorkerRssBytes, 3),
        ],
        [
          'peak RSS, importer and decoders together',
          fmtMb(before.peakNodeRssBytes),
          fmtMb(after.peakNodeRssBytes),
          fmtRatio(after.peakNodeRssBytes / before.peakNodeRssBytes, 3),
        ],
      ],
    )
  );
}

function importSection(entry: { data: SectionFile<ImportResults> } | undefined): {
  text: string;
  targets: string[][];
} {
  if (!entry) return { text: '_Not run yet._', targets: [] };
  const { data } = entry;
  if (!data.result)
    return { text: `_Failed: ${data.error?.split('\n')[0]}_ (${describeRun(data)})`, targets: [] };
  const r = data.result;
  const one = r.runs.find((run) => run.workers === 1);
  const parts = [`_${describeRun(data)}._`];
  parts.push(
    `**Import of \`${r.folder}\`** (\`importSources\`, as \`npm run sticky -- import\` does; a fresh DATA_DIR each run; RSS of the importer and its decoder processes, sampled every 100 ms, PostgreSQL apart):\n\n` +
      table(
        [
          'renditions made',
          'workers',
          'files',
          'MB',
          'seconds until visible',
          'files/s',
          'seconds until every rendition',
          'MB/s',
          'median file',
          'peak RSS (Node)',
          'largest process',
          'PostgreSQL RSS',
          'rejected',
          '÷ 1 worker',
        ],
        [...r.runs]
          .sort((a, b) => (a.mode ?? '').localeCompare(b.mode ?? '') || a.workers - b.workers)
          .map((run) => [
            run.mode === 'all-up-front' ? 'all up front (before)' : 'tiles first, rest by jobs',
            run.workers,
            run.files,
            run.megabytes,
            run.seconds,
            run.filesPerSecond,
            run.allSeconds ?? '–',
            run.megabytesPerSecond,
            `${(run.medianFileMs / 1000).toFixed(1)} s`,
            `${fmtMb(run.memory.peakNodeRssBytes)} (${(run.peakRssOverMemory * 100).toFixed(1)}% of RAM)`,
            fmtMb(run.memory.peakProcessRssBytes),
            fmtMb(run.memory.peakPostgresRssBytes),
            run.rejected.length,
            one ? fmtRatio(one.seconds / run.seconds) : '–',
          ]),
      ) +
      `\n\nDecode-only floor (sharp decodes every frame of the same files once, one at a time): ${r.decodeFloor.seconds} s, ${r.decodeFloor.megabytesPerSecond} MB/s; ` +
      `importing with 1 worker takes ${fmtRatio(r.importOverDecode, 1)} that. 2 workers are ${fmtRatio(r.speedupTwoWorkers)} as fast as 1 (limit: 2× on 2 cores).` +
      ((r.failures ?? []).length > 0
        ? `\n\nDid not finish: ${(r.failures ?? []).map((failure) => `${failure.workers} worker(s): ${escapeMarkdown(failure.error.split('\n')[0] ?? '')}`).join('; ')}.`
        : '') +
      (r.runs.some((run) => run.rejected.length > 0)
        ? `\n\nRejected: ${r.runs
            .flatMap((run) =>
              run.rejected.map(
                (entry) => `${entry.file} (${run.workers} worker(s)): ${entry.reason}`,
              ),
            )
            .join('; ')}.`
        : ''),
  );
  if (r.beforeAfter) parts.push(beforeAfterImportTable(r.beforeAfter, data.commit));
  if (r.baselineError) {
    parts.push(`No before/after: ${escapeMarkdown(r.baselineError.split('\n')[0] ?? '')}.`);
  }
  const styles = Object.keys(r.text.byStyle);
  const phrases = [...new Set(r.text.renders.map((render) => render.phrase))];
  parts.push(
    `**Animated text** (\`renderTextAnimation\`, ${r.text.canvas.width}×${r.text.canvas.height} ${r.text.format}, as \`text/animate\` draws; ms per phrase and style, and render time ÷ play time of the animation; the first rendering of the process took ${fmtMs(r.text.coldMs)} ms):\n\n` +
      table(
        ['phrase', ...styles],
        [
          ...phrases.map((phrase) => [
            `“${phrase}”`,
            ...styles.map((style) => {
              const render = r.text.renders.find(
                (entry) => entry.phrase === phrase && entry.style === style,
              );
              return render ? `${fmtMs(render.ms)} ms (${fmtRatio(render.renderOverPlay)})` : '–';
            }),
          ]),
          [
            '**median**',
            ...styles.map(
              (style) =>
                `${fmtMs(r.text.byStyle[style]!.medianMs)} ms (${fmtRatio(r.text.byStyle[style]!.medianRenderOverPlay)})`,
            ),
          ],
        ],
      ),
  );
  return { text: parts.join('\n\n'), targets: importTargets(r) };
}

function chatSection(entry: { data: SectionFile<ChatBenchResult> } | undefined): string {
  if (!entry?.data.result)
    return entry?.data.error ? `Failed: ${entry.data.error.split('\n')[0]}` : 'Not run yet.';
  const parts = entry.data.result.sizes.map(
    (size) =>
      `**${size.items.toLocaleString('en')} items**, ${size.words} words (target: p99 ≤ 300 ms for the platforms):\n\n` +
      table(
        [
          'endpoint',
          'c=1 p50 ms',
          'c=1 p99 ms',
          'c=16 p50 ms',
          'c=16 p99 ms',
          'c=16 req/s',
          'failures',
        ],
        chatTargets.map((target) => {
          const { c1, c16 } = size.targets[target];
          return [
            target,
            c1.latencyMs.p50,
            c1.latencyMs.p99,
            c16.latencyMs.p50,
            c16.latencyMs.p99,
            c16.requestsPerSecond,
            c1.failures + c16.failures,
          ];
        }),
      ),
  );
  return `${describeRun(entry.data)}\n\n${parts.join('\n\n')}`;
}

function uploadsSection(entry: { data: SectionFile<UploadBenchResult> } | undefined): string {
  if (!entry?.data.result)
    return entry?.data.error ? `Failed: ${entry.data.error.split('\n')[0]}` : 'Not run yet.';
  const { latency, throughput, fairness } = entry.data.result;
  const mb = (bytes: number) => `${(bytes / 1048576).toFixed(2)} MB`;
  return (
    `${describeRun(entry.data)}\n\n` +
    `**Drop to Ready**: ${latency.runs} uploads of one ${mb(latency.file.bytes)} GIF (${latency.file.width}×${latency.file.height}, ${latency.file.frames} frames; ${latency.file.source}) through \`POST /api/uploads\` on an idle server, timed until \`GET /api/uploads\` says Ready:\n\n` +
    table(
      ['', 'p50 ms', 'p95 ms', 'max ms'],
      [
        ['accepted (202)', latency.acceptedMs.p50, latency.acceptedMs.p95, latency.acceptedMs.max],
        ['Ready', latency.readyMs.p50, latency.readyMs.p95, latency.readyMs.max],
      ],
    ) +
    `\n\n**Throughput**: ${throughput.files} files (${throughput.megabytes} MB) of ../shared/data/gifs in ${throughput.requests} requests of ${throughput.filesPerRequest}, two at a time; UPLOAD_WORKERS=${throughput.uploadWorkers}, IMPORT_WORKERS=${throughput.importWorkers}: all Ready in ${throughput.seconds} s, **${throughput.filesPerSecond} files/s** (${throughput.megabytesPerSecond} MB/s); ${throughput.failed.length} refused.` +
    (fairness
      ? `\n\n**One file behind another person's ${fairness.heavyFiles}**: ${fairness.runs} runs of one ${mb(fairness.heavyFileBytes)} GIF sent just after another person's ${fairness.heavyFiles} of them (UPLOAD_WORKERS=${fairness.uploadWorkers}), timed to Ready: p50 ${fairness.readyMs.p50} ms, p95 ${fairness.readyMs.p95} ms; the other person's files finished before it: ${fairness.heavyFinishedBefore.join(', ')}.`
      : '')
  );
}

function scoreRow(label: string, score: QualityScore): Array<string | number> {
  return [
    label,
    score.queries,
    score.recallAt25.toFixed(4),
    `${score.maxRecallAt25.toFixed(4)} (${fmtRatio(score.recallOverMax, 3)})`,
    score.mrr.toFixed(4),
  ];
}

function qualitySection(entry: { data: SectionFile<QualityResult> } | undefined): string {
  if (!entry) return '_Not run yet._';
  const { data } = entry;
  if (!data.result) return `_Failed: ${data.error?.split('\n')[0]}_ (${describeRun(data)})`;
  const r = data.result;
  const parts = [`_${describeRun(data)}._`];
  parts.push(
    "Search as the catalog code does it (`searchItemIds`, all types, 25 results). The natural limit of recall@25 is below 1 when a query has more than 25 relevant items; MRR's is 1.\n\n" +
      table(
        ['queries', 'n', 'recall@25', 'best possible (÷)', 'MRR'],
        [
          scoreRow(
            `\`${r.catalog.queriesFile}\` on the ${r.catalog.items} items of gifs/manifest.json`,
            r.catalog.score,
          ),
          scoreRow(
            `\`${r.emoji.queriesFile}\` on ${r.emoji.items} emoji (label + CLDR tags)`,
            r.emoji.score,
          ),
          scoreRow(`misspelt (\`${r.misspelt.file}\`)`, r.misspelt.score),
          scoreRow('the same, spelt right', r.misspelt.intended),
          ...(r.synonyms
            ? [
                scoreRow(
                  `synonyms of tags on the ${r.synonyms.items} emoji: ${r.synonyms.source}`,
                  r.synonyms.score,
                ),
                scoreRow('the same, matching the words as written only', r.synonyms.unexpanded),
              ]
            : []),
        ],
      ) +
      `\n\nMisspelt ÷ spelt right: recall ${fmtRatio(r.misspelt.recallOverIntended, 3)}, MRR ${fmtRatio(r.misspelt.mrrOverIntended, 3)}. By kind of typo: ${Object.entries(
        r.misspelt.byKind,
      )
        .map(
          ([kind, score]) =>
            `${kind} (${score.queries}): recall ${score.recallAt25.toFixed(2)}, MRR ${score.mrr.toFixed(2)}`,
        )
        .join('; ')}.` +
      (r.misspelt.score.misses.length > 0
        ? `\n\nMisspelt queries that found nothing relevant: ${r.misspelt.score.misses.map((q) => `“${escapeMarkdown(q)}”`).join(', ')}.`
        : '') +
      (r.emoji.score.misses.length > 0
        ? `\n\nEmoji queries with nothing relevant in the first 25 (first ${r.emoji.score.misses.length}): ${r.emoji.score.misses.map((q) => `“${escapeMarkdown(q)}”`).join(', ')}.`
        : ''),
  );
  return parts.join('\n\n');
}

function machineLine(): string {
  const entry = sections.map((section) => latest(section)).find(Boolean);
  if (!entry) return 'No results yet.';
  const m = entry.data.machine;
  return `${m.cpuModel}, ${m.cores} cores, ${m.memoryGiB} GiB RAM, ${m.os}, Node ${m.node}.`;
}

/** Rewrites bench/README.md from the newest results of each section and bench/notes.md. */
export async function writeReadme(): Promise<string> {
  const search = searchSection(latest<SearchBenchResult>('search'));
  const web = webSection(latest<WebBenchResult>('web'));
  const importing = importSection(latest<ImportResults>('import'));
  const notesFile = path.join(benchDir, 'notes.md');
  const notes = fs.existsSync(notesFile) ? fs.readFileSync(notesFile, 'utf8').trim() : '';
  const runOf = (entry: { data: SectionFile } | undefined) =>
    entry ? `${entry.data.mode} ${entry.data.date}` : '';
  const targets = [
    ...search.targets.map((row) => [...row, runOf(latest('search'))]),
    ...web.targets.map((row) => [...row, runOf(latest('web'))]),
    ...importing.targets.map((row) => [...row, runOf(latest('import'))]),
  ];
  const text = `# Sticky benchmarks

<!-- Generated by \`npm run bench\` (bench/report.ts) from bench/results/ and bench/notes.md: edit those, not this file. -->

These are benchmarks, not tests: \`npm run bench\` runs them (it is not part of \`npm test\`), writes
\`bench/results/<date>-<section>.json\` and rewrites this file. Every figure that has a natural limit
is printed next to it as a ratio measured in the same run, because the machines are shared and
absolute times drift: the floor of an HTTP request (\`/healthz\`), of a database round trip
(\`SELECT 1\`), of decoding the files once, the Lighthouse figures of a one-heading page, and so on.

**Machine:** ${machineLine()}

## Reproduce

\`\`\`sh
npm install
npm run bench             # everything: 10k, 100k and 1M items; about 50 minutes
npm run bench -- --quick  # a small version (10k items, 4 files, no Lighthouse): under 3 minutes
npm run bench -- --only search --sizes 10000,100000   # one section, chosen sizes
npm run bench -- --only uploads                       # drop-to-Ready and throughput of uploads
npm run bench -- --quick --lighthouse                 # the small version with Lighthouse
npm run bench -- --baseline 9dd097c                   # before and after in the same run
\`\`\`

It needs \`../shared/data\` beside the repository and Chromium at \`/usr/bin/chromium\` (or
\`CHROMIUM_PATH\`). Everything runs on loopback: a real server (\`apps/server/src/main.ts\`, started
as the browser tests start it) on its own embedded PostgreSQL in a temporary \`DATA_DIR\`, with
\`SEED_STARTER_CATALOG=false\` and an \`STICKY_API_KEYS\` key for autocannon. Options (\`--help\`):
\`--only quality,import,web,search,uploads\`, \`--sizes\`, \`--no-build\` (reuse \`apps/web/dist\` when it
has a manifest), \`--no-lighthouse\`, \`--lighthouse\` (run it with \`--quick\` too).

\`--baseline <git ref>\` measures another commit beside this one, in the same run, for "before and
after" figures: 9dd097c is the commit issues 15 and 17 took their "today" figures at. The bench
makes a work tree of that commit in the temporary folder (\`git worktree\`), runs its own
\`npm ci\` and web build there (about 3 minutes the first time; reused by later runs), and starts its
server from there on an embedded PostgreSQL of its own, so its schema is its own. The search
section grows the same synthetic catalog in both databases and asks both servers in turn (cold
search and related, trending at c=32); the import section imports the same files through the
baseline's own CLI (\`npm run sticky -- import\`, in its work tree, 2 workers) after this commit's
import, for files/s until every item is visible; the web section shows that catalog on the
baseline's server and measures the same pages on both servers in turn. Without \`--baseline\`
only this commit is measured.

## Targets

${targets.length > 0 ? table(['target', 'limit', 'measured', 'measured ÷ limit', '', 'run'], targets) : '_No results yet._'}

## What is left, and why

${notes || '_Nothing noted._'}

## 1. Search and browse at scale

A deterministic synthetic catalog (bench/search/synthetic-catalog.ts): item *n* is always the same
row, titles and tags drawn from the English emoji annotations (\`emoji-annotations.en.tsv\`, labels
and CLDR keywords, popular words picked more often), types gif 59% / sticker 32% / text 9%, ratings
g 68% / pg 18% / pg-13 10% / r 4%, 30% never viewed, the rest with Zipf-like trend scores, 40% with a
creator, 17 rendition rows per item as the import makes them; loaded with one
\`INSERT … SELECT generate_series\` per 25,000 items. Latency is measured with autocannon over
loopback (every response's own time); "raw SQL" is the time the database spent on the same requests
run in process through the server's own catalog functions (\`apps/server/src/catalog/query/\`), i.e.
the time statements were in flight, one request at a time.

${search.text}

## 2. Page weight and speed

${web.text}

## 3. Import and animated text

${importing.text}

## 3b. Uploads

${uploadsSection(latest<UploadBenchResult>('uploads'))}

## 3c. /sticky in chats

Signed slash commands (Slack's HMAC, Discord's Ed25519, Mattermost's token) to each platform's
endpoint on the synthetic catalog of section 1, each answering the preview of the best match,
beside \`/healthz\` and the same words through \`/v1/gifs/search\` (limit 1), in the same run
(bench/chat/index.ts; docs/integrations.md).

${chatSection(latest<ChatBenchResult>('chat'))}

## 4. Search quality

${qualitySection(latest<QualityResult>('quality'))}
`;
  const file = path.join(benchDir, 'README.md');
  // Formatted as `npm test`'s prettier check expects (tables aligned).
  const options = await prettier.resolveConfig(file);
  fs.writeFileSync(file, await prettier.format(text, { ...options, filepath: file }));
  return file;
}
