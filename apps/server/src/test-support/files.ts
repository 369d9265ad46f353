import fs from 'node:fs';
import path from 'node:path';

/** Every file below `dir` (absolute paths); none when it does not exist. */
export function listFilesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}
