import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { STARTER_CATALOG_VERSION } from '../../apps/server/src/catalog/starter/plan.ts';
import { repoRoot } from './server.ts';

/**
 * A DATA_DIR holding the seeded starter catalog, made once per catalog version with the CLI
 * (`npm run sticky -- seed`) and kept in the temp folder; each run works on a copy of it.
 */
export async function ensureSeededTemplate(
  log: (line: string) => void,
  timeoutMs: number,
): Promise<string> {
  const template = path.join(os.tmpdir(), `sticky-stress-catalog-v${STARTER_CATALOG_VERSION}`);
  const marker = path.join(template, '.stress-seeded');
  if (fs.existsSync(marker)) return template;
  fs.rmSync(template, { recursive: true, force: true });
  fs.mkdirSync(template, { recursive: true });
  fs.chmodSync(template, 0o755);
  log(
    `seeding the starter catalog v${STARTER_CATALOG_VERSION} into ${template} (once per version; minutes)`,
  );
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'apps/server/src/cli/main.ts', 'seed'],
    {
      cwd: repoRoot,
      env: { ...process.env, DATA_DIR: template, LOG_LEVEL: 'warn', NODE_ENV: 'development' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearTimeout(timer);
  if (code !== 0) throw new Error(`seeding failed (exit ${code}):\n${output.slice(-2000)}`);
  log(output.trim().split('\n').slice(-3).join('\n'));
  fs.writeFileSync(marker, new Date().toISOString());
  return template;
}

/** A private copy of the template (ownership kept: PostgreSQL checks it). */
export function copyDataDir(template: string, target: string): string {
  fs.rmSync(target, { recursive: true, force: true });
  const result = spawnSync('cp', ['-a', template, target]);
  if (result.status !== 0) throw new Error(`cp -a failed: ${result.stderr.toString()}`);
  fs.rmSync(path.join(target, 'sticky.pid'), { force: true });
  fs.rmSync(path.join(target, '.stress-seeded'), { force: true });
  return target;
}
