import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** The part of Vite's build manifest (dist/.vite/manifest.json) the server reads. */
const manifestSchema = z.record(
  z.string(),
  z.object({
    file: z.string(),
    isEntry: z.boolean().optional(),
    imports: z.array(z.string()).optional(),
  }),
);

type Manifest = z.infer<typeof manifestSchema>;

/**
 * The scripts a route of the web app loads lazily, for `<link rel="modulepreload">` in the
 * page that shows it (docs/web.md, "First page"): without them the browser learns of a
 * route's chunks only once the entry script has run, a round trip after the page. Returns,
 * for source modules as the manifest names them, their built files and those of their static
 * imports, as `/assets/…` paths, leaving out what the entry already loads (index.html
 * preloads it). No manifest (a build without one, or none at all): nothing to add.
 */
export function readRouteChunks(distDir: string): (modules: readonly string[]) => string[] {
  const manifest = readManifest(distDir);
  if (!manifest) return () => [];
  const entryKeys = Object.keys(manifest).filter((key) => manifest[key]!.isEntry);
  const loadedByEntry = closureOf(manifest, entryKeys);
  return (modules) =>
    [...closureOf(manifest, modules)]
      .filter((key) => !loadedByEntry.has(key))
      .map((key) => `/${manifest[key]!.file}`)
      .filter((file) => file.endsWith('.js'));
}

function readManifest(distDir: string): Manifest | undefined {
  const file = path.join(distDir, '.vite', 'manifest.json');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const parsed = manifestSchema.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : undefined;
}

/** The keys reachable from `keys` through static imports; keys the manifest lacks are skipped. */
function closureOf(manifest: Manifest, keys: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return;
    seen.add(key);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return seen;
}
