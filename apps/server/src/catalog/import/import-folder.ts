import { formatBytes, titleFromFileName } from '@sticky/contracts';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import { z } from 'zod';
import { importMedia } from './import-media.ts';
import type { ImportDeps, ImportOutcome, ItemMetadata } from './import-media.ts';

/** One file to import, with the metadata its folder's manifest.json gives (or its name). */
export interface ImportSource {
  file: string;
  metadata: ItemMetadata;
}

export class ManifestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ManifestError';
  }
}

/**
 * A link the catalog will show and serve (source, avatar, profile, website): http(s) only, so a
 * manifest cannot plant a `javascript:` or `data:` link (docs/security.md, "Media processing").
 */
const httpLink = z
  .string()
  .refine((value) => value.trim() === '' || /^https?:\/\/[^\s]+$/i.test(value.trim()), {
    message: 'must be an http(s) URL',
  });

const sourceSchema = z.union([
  z.string(),
  z
    .object({
      url: httpLink.optional(),
      upstream: z.string().optional(),
      repo: z.string().optional(),
      commit: z.string().optional(),
      path: z.string().optional(),
      package: z.string().optional(),
      version: z.string().optional(),
    })
    .loose(),
]);

const creatorSchema = z.object({
  username: z.string(),
  display_name: z.string().optional(),
  avatar_url: httpLink.optional(),
  description: z.string().optional(),
  profile_url: httpLink.optional(),
  website_url: httpLink.optional(),
  is_verified: z.boolean().optional(),
});

/** The shape of ../shared/data/gifs/manifest.json; unknown fields are ignored. */
const manifestSchema = z.object({
  items: z.array(
    z
      .object({
        file: z.string().min(1),
        title: z.string().optional(),
        tags: z.array(z.string()).optional(),
        type: z.enum(['gif', 'sticker', 'text']).optional(),
        category: z.string().optional(),
        categories: z.array(z.string()).optional(),
        rating: z.enum(['g', 'pg', 'pg-13', 'r']).optional(),
        alt_text: z.string().optional(),
        source: sourceSchema.optional(),
        license: z.string().optional(),
        attribution: z.string().optional(),
        creator: creatorSchema.optional(),
      })
      .loose(),
  ),
});

type ManifestItem = z.infer<typeof manifestSchema>['items'][number];

const IGNORED_FILES = new Set(['manifest.json']);

/** `animated-text` → `Animated text`: manifest categories are slugs, ours display names. */
function categoryDisplayName(category: string): string {
  return category
    .split('/')
    .map((part) => {
      const words = part.replace(/[-_]+/g, ' ').trim();
      return words ? words[0]!.toUpperCase() + words.slice(1) : words;
    })
    .join('/');
}

/** A link for the manifest's `source`, which may be a URL or a description of where from. */
export function sourceUrlOf(source: ManifestItem['source']): string | undefined {
  if (!source) return undefined;
  if (typeof source === 'string') return /^https?:\/\//.test(source) ? source : undefined;
  if (source.url) return source.url;
  if (source.repo && source.commit && source.path) {
    return `https://github.com/${source.repo}/blob/${source.commit}/${source.path}`;
  }
  if (source.package) {
    return `https://www.npmjs.com/package/${source.package}${source.version ? `/v/${source.version}` : ''}`;
  }
  return source.upstream && /^https?:\/\//.test(source.upstream) ? source.upstream : undefined;
}

function metadataFromManifest(item: ManifestItem, defaults: Partial<ItemMetadata>): ItemMetadata {
  const categories = [...(item.category ? [item.category] : []), ...(item.categories ?? [])].map(
    categoryDisplayName,
  );
  return {
    ...defaults,
    title: item.title?.trim() || titleFromFileName(item.file),
    tags: item.tags ?? defaults.tags ?? [],
    type: item.type ?? defaults.type ?? 'gif',
    rating: item.rating ?? defaults.rating,
    altText: item.alt_text,
    sourceUrl: sourceUrlOf(item.source),
    license: item.license,
    attribution: item.attribution,
    categories: categories.length > 0 ? categories : defaults.categories,
    creator: item.creator
      ? {
          username: item.creator.username,
          displayName: item.creator.display_name ?? item.creator.username,
          avatarUrl: item.creator.avatar_url,
          description: item.creator.description,
          profileUrl: item.creator.profile_url,
          websiteUrl: item.creator.website_url,
          isVerified: item.creator.is_verified,
        }
      : undefined,
  };
}

async function readManifest(folder: string): Promise<Map<string, ManifestItem> | undefined> {
  const file = path.join(folder, 'manifest.json');
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ManifestError(`Could not read ${file}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ManifestError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ManifestError(
      `${file} does not look like a Sticky manifest: ${issue.path.join('.') || 'top level'}: ${issue.message}`,
    );
  }
  return new Map(parsed.data.items.map((item) => [item.file, item]));
}

export interface CollectedSources {
  sources: ImportSource[];
  /** Files named in a manifest that are not there. */
  missing: Array<{ file: string; reason: string }>;
}

/**
 * Turns folders and files into import sources. A folder's `manifest.json` supplies each file's
 * metadata; a file it does not list (or a folder without one) is titled after its file name.
 */
export async function collectImportSources(
  paths: readonly string[],
  defaults: Partial<ItemMetadata> = {},
): Promise<CollectedSources> {
  const sources: ImportSource[] = [];
  const missing: CollectedSources['missing'] = [];
  const manifests = new Map<string, Map<string, ManifestItem> | undefined>();
  const manifestOf = async (folder: string) => {
    if (!manifests.has(folder)) manifests.set(folder, await readManifest(folder));
    return manifests.get(folder);
  };
  const seen = new Set<string>();
  const add = async (file: string) => {
    const absolute = path.resolve(file);
    if (seen.has(absolute)) return;
    seen.add(absolute);
    const manifest = await manifestOf(path.dirname(absolute));
    const item = manifest?.get(path.basename(absolute)) ?? { file: path.basename(absolute) };
    sources.push({ file: absolute, metadata: metadataFromManifest(item, defaults) });
  };

  for (const given of paths) {
    const stat = await fs.stat(given).catch(() => undefined);
    if (!stat) {
      missing.push({ file: given, reason: 'no such file or folder' });
    } else if (stat.isDirectory()) {
      const manifest = await manifestOf(path.resolve(given));
      const listedOrder = [...(manifest?.keys() ?? [])];
      const rank = (name: string) => {
        const index = listedOrder.indexOf(name);
        return index === -1 ? listedOrder.length : index;
      };
      // Files the manifest describes come first, in its order, then the rest by name: when
      // two files hold the same bytes, the described one is the item, the other its duplicate.
      const entries = (await fs.readdir(given, { withFileTypes: true }))
        .filter((entry) => entry.isFile() && !entry.name.startsWith('.'))
        .filter((entry) => !IGNORED_FILES.has(entry.name) && !/^readme/i.test(entry.name))
        .map((entry) => entry.name)
        .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
      for (const name of entries) await add(path.join(given, name));
      for (const listed of manifest?.keys() ?? []) {
        if (!entries.includes(listed)) {
          missing.push({
            file: path.join(given, listed),
            reason: 'listed in manifest.json but not found',
          });
        }
      }
    } else if (stat.isFile()) {
      await add(given);
    } else {
      missing.push({ file: given, reason: 'not a regular file' });
    }
  }
  return { sources, missing };
}

export interface ImportResult {
  file: string;
  outcome: ImportOutcome;
  ms: number;
  bytes: number;
}

/**
 * Imports sources with enough in flight to keep every decoder busy while the others wait on
 * the disk or the database. Results come back in the order of the sources.
 */
export async function importSources(
  deps: ImportDeps,
  sources: readonly ImportSource[],
  options: { onResult?: (result: ImportResult) => void } = {},
): Promise<ImportResult[]> {
  const limit = pLimit(deps.config.importLimits.workers * 2);
  const { maxBytes } = deps.config.importLimits;
  // Files with the same bytes import in the order given: the first is the item, the others
  // its duplicates, whichever decoder happens to finish first.
  const hashes = await hashSources(sources, maxBytes);
  const firstIndexByHash = new Map<string, number>();
  hashes.forEach((hash, index) => {
    if (hash && !firstIndexByHash.has(hash)) firstIndexByHash.set(hash, index);
  });
  const tasks: Array<Promise<ImportResult>> = [];
  sources.forEach((source, index) => {
    const hash = hashes[index];
    const firstIndex = hash === undefined ? index : (firstIndexByHash.get(hash) ?? index);
    const first = firstIndex === index ? undefined : tasks[firstIndex];
    tasks.push(
      limit(async () => {
        const started = Date.now();
        const size = (await fs.stat(source.file)).size;
        const outcome: ImportOutcome = first
          ? toDuplicateOf((await first).outcome)
          : size > maxBytes
            ? // A huge file is refused before it is read into memory.
              {
                status: 'rejected',
                reason: `the file is ${formatBytes(size)}, over the limit of ${formatBytes(maxBytes)}`,
              }
            : await importMedia(deps, {
                bytes: await fs.readFile(source.file),
                fileName: path.basename(source.file),
                metadata: source.metadata,
              });
        const result = { file: source.file, outcome, ms: Date.now() - started, bytes: size };
        options.onResult?.(result);
        return result;
      }),
    );
  });
  return Promise.all(tasks);
}

function toDuplicateOf(outcome: ImportOutcome): ImportOutcome {
  return outcome.status === 'rejected' ? outcome : { status: 'duplicate', itemId: outcome.itemId };
}

/** sha256 of each source (streamed, so memory stays flat); undefined for files over the limit. */
async function hashSources(
  sources: readonly ImportSource[],
  maxBytes: number,
): Promise<Array<string | undefined>> {
  const hashes: Array<string | undefined> = [];
  for (const source of sources) {
    const size = (await fs.stat(source.file)).size;
    if (size > maxBytes) {
      hashes.push(undefined);
      continue;
    }
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(source.file)) hash.update(chunk as Buffer);
    hashes.push(hash.digest('hex'));
  }
  return hashes;
}
