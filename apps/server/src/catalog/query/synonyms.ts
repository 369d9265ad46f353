import fs from 'node:fs';

/**
 * What a query word may also mean: WordNet synonyms ("glad" → happy) and emoji keywords
 * ("😂" → laugh), built by `npm run synonyms` (scripts/build-synonym-map.ts) into
 * synonym-map.json (docs/catalog.md, "Synonyms and emoji").
 */
export interface SynonymMap {
  words: Readonly<Record<string, readonly string[]>>;
  emoji: Readonly<Record<string, readonly string[]>>;
}

// The map is immutable data read from a file, not state, so it is kept at module level and
// read on first use (docs/architecture.md, "Services per app").
// eslint-disable-next-line no-restricted-syntax -- immutable data loaded on first use
let cache: SynonymMap | undefined;

/** The committed synonym map: about 1 MB of JSON, 20 ms and a few MB of heap to read. */
export function readSynonymMap(): SynonymMap {
  cache ??= JSON.parse(
    fs.readFileSync(new URL('./synonym-map.json', import.meta.url), 'utf8'),
  ) as SynonymMap;
  return cache;
}

/** An emoji as the map keys it: without the variation selector FE0F, nor a skin tone. */
export const toEmojiKey = (emoji: string) => emoji.replace(/\uFE0F|\p{Emoji_Modifier}/gu, '');

/** Words of letters and digits, and emoji (with their joiners, selectors and tones). */
export const queryTokenPattern =
  /[\p{L}\p{N}]+|(?:\p{Extended_Pictographic}|\p{Regional_Indicator})(?:\uFE0F|\p{Emoji_Modifier}|\u20E3|\u200D\p{Extended_Pictographic})*/gu;

/** The candidates of one query word: what it may also mean, before the catalog is asked. */
export interface WordCandidates {
  /** The word as the query has it (lower case), or the emoji. */
  token: string;
  isEmoji: boolean;
  candidates: readonly string[];
}

/**
 * Each word or emoji of a normalized query that the map expands, with its candidates (which
 * the catalog then narrows to its own words: search.ts, readQueryTerms). Empty for a query
 * with operators (`or`, `-word`, quotes), whose meaning expansion would change.
 */
export function listExpansionCandidates(map: SynonymMap, normalized: string): WordCandidates[] {
  if (/["-]/.test(normalized) || /(^| )or( |$)/.test(normalized)) return [];
  const found: WordCandidates[] = [];
  for (const [token] of normalized.matchAll(queryTokenPattern)) {
    const isEmoji = !/^[\p{L}\p{N}]+$/u.test(token);
    const key = isEmoji ? toEmojiKey(token) : token;
    const candidates = (isEmoji ? map.emoji : map.words)[key];
    if (candidates && Object.hasOwn(isEmoji ? map.emoji : map.words, key)) {
      found.push({ token, isEmoji, candidates });
    }
  }
  return found;
}
