// `node --import tsx bench/import/ready-only.ts [--root <checkout>…] [--workers 2] [--runs 1]`:
// the import's ready path alone (every item visible, the later renditions not made), each
// checkout in turn and again for --runs rounds, so a change and the code before it are measured
// close together on a shared machine. Prints files/s, each decoder's peak RSS and the load
// average; writes nothing. `npm run bench -- --only import` is the full, recorded measurement.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { log } from '../lib/log.ts';
import { gifsDir, repoRoot } from '../lib/paths.ts';
import { createDataDir } from '../lib/server.ts';
import { describeDecoders, runImportChild } from './index.ts';

const { values } = parseArgs({
  options: {
    root: { type: 'string', multiple: true },
    workers: { type: 'string', default: '2' },
    runs: { type: 'string', default: '1' },
    input: { type: 'string', multiple: true },
  },
});
const roots = values.root?.map((root) => path.resolve(root)) ?? [repoRoot];
const workers = Number(values.workers);
const inputs = values.input ?? [gifsDir];
const load = () => os.loadavg()[0]!.toFixed(2);
/** CPU time of the children this process has waited for (the import child and its tree), in s. */
const childrenCpuSeconds = () => {
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
};

for (let round = 1; round <= Number(values.runs); round += 1) {
  for (const root of roots) {
    const dataDir = createDataDir(`ready-w${workers}`);
    const loadAtStart = load();
    const cpuAtStart = childrenCpuSeconds();
    try {
      const { output, decoders, memory } = await runImportChild(
        dataDir,
        workers,
        'ready-first',
        inputs,
        1_200_000,
        { root, env: { STICKY_BENCH_IMPORT_DRAIN: 'false' } },
      );
      const cpu = childrenCpuSeconds() - cpuAtStart;
      log(
        `${path.basename(root)} round ${round}: CPU ${cpu.toFixed(1)} s from start to exit, of which decoders ${decoders.decoderCpuSeconds.toFixed(1)} s, importer ${decoders.importerCpuSeconds.toFixed(1)} s; ${output.files} files visible in ${output.seconds.toFixed(1)} s = ${(output.files / output.seconds).toFixed(2)} files/s (${output.imported} imported, ${output.rejected.length} rejected, ${output.renditions} renditions); load ${loadAtStart} → ${load()}; decoders ${describeDecoders(decoders)}; all processes ${(memory.peakNodeRssBytes / 1e6).toFixed(0)} MB`,
      );
      for (const rejected of output.rejected)
        log(`  rejected ${rejected.file}: ${rejected.reason}`);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
}
