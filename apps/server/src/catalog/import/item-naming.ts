import { randomInt } from 'node:crypto';
import type { Rating } from '@sticky/contracts';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A random 18-character base62 id, like GIPHY's (`3o7TKSjRrfIPjeiVyM`): about 107 bits. */
export function generateItemId(): string {
  let id = '';
  for (let index = 0; index < 18; index += 1) id += BASE62[randomInt(62)];
  return id;
}

/** Ids given by callers (deterministic text renderings) must still be safe in URLs and slugs. */
export function isValidItemId(id: string): boolean {
  return /^[0-9A-Za-z]{6,64}$/.test(id);
}

/** Lower-case ASCII words of a title: accents folded, everything else a separator. */
export function titleWords(title: string): string[] {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** GIPHY's slug: `title-words-id`, or just the id when the title has no ASCII words. */
export function buildSlug(title: string, id: string): string {
  const words: string[] = [];
  let length = 0;
  for (const word of titleWords(title)) {
    if (length + word.length > 60) break;
    words.push(word);
    length += word.length + 1;
  }
  return [...words, id].join('-');
}

/** Tags as search expects them: trimmed, lower case, single-spaced, no duplicates, no empties. */
export function normaliseTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const tag of tags) {
    const clean = tag.normalize('NFKC').trim().toLowerCase().replace(/\s+/g, ' ').slice(0, 100);
    if (clean) seen.add(clean);
  }
  return [...seen];
}

export const ratingRanks = {
  g: 0,
  pg: 1,
  'pg-13': 2,
  r: 3,
} as const satisfies Record<Rating, number>;
