import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';

/**
 * `../shared` beside the repository: the large data sets (real GIFs, hostile GIFs, query sets)
 * that some tests read and never copy. Small fixtures live in the repository instead
 * (docs/testing.md).
 */
export const sharedDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../../shared',
);

/** An absolute path under `../shared`. */
export function sharedPath(...segments: string[]): string {
  return path.join(sharedDir, ...segments);
}

/** The first of `relativePaths` (under `../shared`) that is missing, if any. */
export function findMissingSharedData(relativePaths: readonly string[]): string | undefined {
  return relativePaths.find((relative) => !fs.existsSync(sharedPath(relative)));
}

/**
 * A `describe` for tests that need the large data sets. When one of `relativePaths` is absent
 * the block is skipped with the reason in its name, except under `CI`, where a missing
 * `../shared` fails the run: a green CI must never mean "skipped everything".
 */
export function describeWithSharedData(
  name: string,
  relativePaths: readonly string[],
  body: () => void,
): void {
  const missing = findMissingSharedData(relativePaths);
  if (!missing) {
    describe(name, body);
    return;
  }
  const reason = `../shared/${missing} is absent`;
  if (process.env.CI) {
    describe(name, () => {
      it(`needs ../shared/${missing}`, () => {
        throw new Error(`${reason}; CI runs with ../shared beside the repository.`);
      });
    });
    return;
  }
  describe.skip(`${name} (skipped: ${reason})`, body);
}
