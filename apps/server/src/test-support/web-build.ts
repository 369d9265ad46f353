import fs from 'node:fs';
import path from 'node:path';
import type { TestContext } from 'vitest';
import { webDistDir } from '../routes/spa.ts';

/**
 * Whether the built web app (`npm run build`) is there for a test that reads it. Absent, the
 * test is skipped with the reason; under `CI`, where `npm test` builds first, its absence fails
 * the test instead, so a green CI never means "skipped" (docs/testing.md, "Server tests").
 */
export function hasWebBuild(context: TestContext): boolean {
  const indexFile = path.join(webDistDir, 'index.html');
  if (fs.existsSync(indexFile)) return true;
  const reason = `apps/web/dist is not built (${indexFile} is absent); "npm run build" first`;
  if (process.env.CI) throw new Error(`${reason}: under CI the build comes before the tests`);
  context.skip(reason);
  return false;
}
