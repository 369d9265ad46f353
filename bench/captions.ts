/**
 * The caption reader's cost (docs/catalog.md, "Captions"): CPU seconds per item (median, p90)
 * over the starter catalog's items, drawn as the seed draws them, and the time to read them all
 * in one process; and its recall on the captioned GIFs, whose plan knows their words.
 *
 *   node --import tsx bench/captions.ts [--limit N]
 *
 * Writes bench/results/<date>-captions.json. Drawing is not counted, only reading.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createCaptionReader } from '../apps/server/src/catalog/captions/caption-reader.ts';
import { buildStarterPlan } from '../apps/server/src/catalog/starter/plan.ts';

const { values } = parseArgs({ options: { limit: { type: 'string' } } });
const plan = buildStarterPlan().slice(0, values.limit ? Number(values.limit) : undefined);
const reader = createCaptionReader();
const wordsOf = (text: string): string[] => text.toLowerCase().match(/[a-z]+/g) ?? [];
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

const rows: Array<{ key: string; type: string; cpuMs: number; wallMs: number; caption: string }> =
  [];
let expected = 0;
let found = 0;
let noise = 0;
// The engine's start (reading the model) is counted apart: once per app.
const startCpu = process.cpuUsage();
const startWall = performance.now();
await reader.read(await plan[0]!.render('gif'));
const engineStart = { cpuMs: cpuMsSince(startCpu), wallMs: performance.now() - startWall };
let readWallMs = 0;
for (const item of plan) {
  const bytes = await item.render('gif');
  const cpu = process.cpuUsage();
  const wall = performance.now();
  const { caption } = await reader.read(bytes);
  const row = {
    key: item.key,
    type: item.type,
    cpuMs: cpuMsSince(cpu),
    wallMs: performance.now() - wall,
    caption,
  };
  readWallMs += row.wallMs;
  rows.push(row);
  if (item.type === 'gif' && item.caption) {
    const want = wordsOf(item.caption);
    const got = wordsOf(caption);
    expected += want.length;
    found += want.filter((word) => got.includes(word)).length;
    noise += got.filter((word) => !want.includes(word)).length;
  } else if (item.type !== 'text' && caption) {
    noise += wordsOf(caption).length;
  }
}
await reader.close();

function cpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

const summarize = (subset: typeof rows) => {
  const cpu = subset.map((row) => row.cpuMs / 1000).sort((a, b) => a - b);
  return {
    items: subset.length,
    cpuSecondsMedian: Number(quantile(cpu, 0.5).toFixed(3)),
    cpuSecondsP90: Number(quantile(cpu, 0.9).toFixed(3)),
    cpuSecondsMax: Number((cpu.at(-1) ?? 0).toFixed(3)),
  };
};
const result = {
  date: new Date().toISOString(),
  engine: 'tesseract.js (eng 4.0.0_best_int, LSTM)',
  engineStart,
  all: summarize(rows),
  byType: Object.fromEntries(
    ['gif', 'sticker', 'text'].map((type) => [
      type,
      summarize(rows.filter((r) => r.type === type)),
    ]),
  ),
  starterReadSeconds: Number((readWallMs / 1000).toFixed(1)),
  starterReadCpuSeconds: Number((rows.reduce((sum, row) => sum + row.cpuMs, 0) / 1000).toFixed(1)),
  captionedGifs: { words: expected, found, recall: Number((found / expected).toFixed(3)), noise },
};
console.log(JSON.stringify(result, null, 2));
const out = path.join(import.meta.dirname, 'results', `${result.date.slice(0, 10)}-captions.json`);
fs.writeFileSync(out, `${JSON.stringify({ ...result, rows }, null, 2)}\n`);
console.log(`written ${path.relative(process.cwd(), out)}`);
