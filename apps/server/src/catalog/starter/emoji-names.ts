import fs from 'node:fs';
import { createRequire } from 'node:module';
import { findEmojiArtByName, toNotoHexcode } from '../text/emoji-art.ts';
import type { EmojiArt } from '../text/emoji-art.ts';

const require = createRequire(import.meta.url);

interface EmojibaseEmoji {
  label: string;
  hexcode: string;
  emoji: string;
  tags?: string[];
}

export interface EmojiInfo {
  art: EmojiArt;
  /** CLDR name, as emojibase-data has it: "grinning face". */
  label: string;
  tags: string[];
  emoji: string;
  hexcode: string;
}

// emojibase's and Noto's names: immutable data read from package files, not state, so kept
// at module level and read on first use (docs/architecture.md, "Services per app").
// eslint-disable-next-line no-restricted-syntax -- immutable data loaded on first use
let byHexcode: Map<string, EmojibaseEmoji> | undefined;
// eslint-disable-next-line no-restricted-syntax -- immutable data loaded on first use
let notoHexcodes: Map<string, string> | undefined;

function emojibase(): Map<string, EmojibaseEmoji> {
  if (!byHexcode) {
    const data = JSON.parse(
      fs.readFileSync(require.resolve('emojibase-data/en/data.json'), 'utf8'),
    ) as EmojibaseEmoji[];
    byHexcode = new Map(data.map((entry) => [toNotoHexcode(entry.emoji), entry]));
  }
  return byHexcode;
}

function notoHexcodeOf(name: string): string | undefined {
  if (!notoHexcodes) {
    const chars = JSON.parse(
      fs.readFileSync(require.resolve('@iconify-json/noto/chars.json'), 'utf8'),
    ) as Record<string, string>;
    notoHexcodes = new Map();
    for (const [hexcode, icon] of Object.entries(chars)) {
      if (!notoHexcodes.has(icon)) notoHexcodes.set(icon, hexcode);
    }
  }
  return notoHexcodes.get(name);
}

/** The Noto art for an emoji name, with its CLDR name and keywords from emojibase-data. */
export function describeEmoji(name: string): EmojiInfo {
  const art = findEmojiArtByName(name);
  const hexcode = notoHexcodeOf(art?.name ?? name) ?? notoHexcodeOf(name);
  const entry = hexcode ? emojibase().get(hexcode) : undefined;
  if (!art || !hexcode || !entry) throw new Error(`no emoji data for ${name}`);
  return {
    art: { ...art, hexcode },
    label: entry.label,
    tags: entry.tags ?? [],
    emoji: entry.emoji,
    hexcode,
  };
}

/** "face with tears of joy" → "Face With Tears of Joy". */
export function titleCase(text: string): string {
  const small = new Set([
    'a',
    'an',
    'and',
    'as',
    'at',
    'of',
    'on',
    'in',
    'the',
    'with',
    'to',
    'for',
    'or',
  ]);
  return text
    .split(/\s+/)
    .map((word, index) =>
      index > 0 && small.has(word.toLowerCase())
        ? word.toLowerCase()
        : word.charAt(0).toUpperCase() + word.slice(1),
    )
    .join(' ');
}
