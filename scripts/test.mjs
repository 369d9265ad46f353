// `npm test`: every check, in order, with one summary at the end. Static checks run first
// because they are fast and their failures are the cheapest to read.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { ensureChromium } from './ensure-chromium.mjs';

const steps = [
  ['lint', 'npx', ['eslint', '--max-warnings=0', '.']],
  // ESLint's import-x/no-cycle skips type-only and dynamic imports; dpdm sees both.
  ['import cycles', 'npm', ['run', '--silent', 'check:cycles']],
  ['format', 'npx', ['prettier', '--check', '--log-level=warn', '.']],
  ['typecheck', 'npm', ['run', '--silent', 'typecheck']],
  ['build', 'npm', ['run', '--silent', 'build']],
  [
    'unit, component and server integration tests (vitest)',
    'npx',
    [
      'vitest',
      'run',
      '--reporter=default',
      '--reporter=json',
      '--outputFile.json=.tmp/vitest.json',
    ],
  ],
  ['browser tests (playwright + chromium)', 'npx', ['playwright', 'test']],
];

// npm runs scripts with node_modules/.bin first on PATH, where the `node` package puts Node 24
// (docs/architecture.md, "Runtime"): the tests must run on the runtime `npm start` uses.
const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  console.error(
    `npm test runs on Node 24 LTS (from the \`node\` dev dependency); this is Node ${process.version}. Run \`npm install\` first.`,
  );
  process.exit(1);
}
console.log(`Node ${process.version}`);

fs.mkdirSync('.tmp', { recursive: true });
for (const file of ['.tmp/vitest.json', '.tmp/playwright.json']) fs.rmSync(file, { force: true });

const results = [];
let hasFailed = false;
for (const [name, command, args] of steps) {
  if (hasFailed) {
    results.push([name, 'skipped', 0]);
    continue;
  }
  if (name.startsWith('browser')) {
    try {
      ensureChromium();
    } catch (error) {
      console.error(`\n${error.message}`);
      results.push([name, 'failed', 0]);
      hasFailed = true;
      continue;
    }
  }
  console.log(`\n▶ ${name}`);
  const started = Date.now();
  const { status } = spawnSync(command, args, {
    stdio: 'inherit',
    env: { ...process.env, FORCE_COLOR: '0' },
  });
  const seconds = Math.round((Date.now() - started) / 100) / 10;
  results.push([name, status === 0 ? 'ok' : 'failed', seconds]);
  if (status !== 0) hasFailed = true;
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

let passed = 0;
let failed = 0;
let skipped = 0;
const vitest = readJson('.tmp/vitest.json');
if (vitest) {
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests;
  skipped += vitest.numPendingTests + (vitest.numTodoTests ?? 0);
}
const playwright = readJson('.tmp/playwright.json');
if (playwright) {
  passed += playwright.stats.expected + playwright.stats.flaky;
  failed += playwright.stats.unexpected;
  skipped += playwright.stats.skipped;
}

console.log('\nSummary');
for (const [name, status, seconds] of results) {
  console.log(`  ${status.padEnd(7)} ${name}${seconds ? ` (${seconds}s)` : ''}`);
}
if (hasFailed && failed === 0) failed = 1;
console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(hasFailed ? 1 : 0);
