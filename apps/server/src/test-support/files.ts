import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/** Every file below `dir` (absolute paths); none when it does not exist. */
export function listFilesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * A folder of the calling suite's own under the system's temporary folder: made before its
 * tests, removed after them, and after every `afterAll` registered later (Vitest runs them in
 * reverse), so a server using it has stopped first. The function returns its path; call it
 * inside hooks and tests.
 */
export function useTempDir(prefix: string): () => string {
  let dir: string | undefined;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  });
  afterAll(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    if (!dir) throw new Error(`the ${prefix} folder is made before the suite's tests`);
    return dir;
  };
}
