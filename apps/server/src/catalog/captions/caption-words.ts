/** One word as the OCR engine read it, with where it was read. */
export interface WordReading {
  text: string;
  /** 0–100, the engine's own. */
  confidence: number;
}

/** Kept from a single reading; below it a word needs a second reading (another frame or variant). */
const sureConfidence = 75;
/** A word read twice or more is kept from here. */
const repeatedConfidence = 45;
/** Longest caption kept (the column's own limit is 1000). */
const maxCaptionLength = 500;

/**
 * Short words without a vowel that captions do use: anything else without one is noise
 * (`|`, `ow`, `Rnd` from an outline's edge).
 */
const vowelFreeWords = new Set([
  'brb',
  'grr',
  'grrr',
  'hmm',
  'hmmm',
  'nsfw',
  'pls',
  'psst',
  'shh',
  'smh',
  'tbh',
  'thx',
  'wtf',
  'zzz',
]);

/** The two-letter words kept; any other pair of letters is more often an edge misread. */
const twoLetterWords = new Set(
  'am an as at be by do go ha he hi if in is it me my no of oh ok on or so to up us we yo'.split(
    ' ',
  ),
);

/**
 * A reading as a word, or undefined for noise: the letters (inner apostrophes and hyphens kept,
 * end punctuation dropped), at least two of them, no digits inside letters, a vowel unless it is
 * a known interjection, and no letter three times in a row unless it is one (`hmmm`, `zzz`).
 */
export function cleanWord(text: string): string | undefined {
  const trimmed = text.normalize('NFKC').replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
  if (!/^[\p{L}]+(?:['’-][\p{L}]+)*$/u.test(trimmed)) {
    // Numbers alone count ("2024"); letters mixed with digits or symbols are misreadings.
    return /^[1-9]\d{1,3}$/.test(trimmed) ? trimmed : undefined;
  }
  const lower = trimmed.toLowerCase();
  if ([...lower].filter((c) => /\p{L}/u.test(c)).length < 2) return undefined;
  if (lower.length === 2 && !twoLetterWords.has(lower)) return undefined;
  if (vowelFreeWords.has(lower)) return trimmed;
  if (!/[aeiouy]/.test(lower)) return undefined;
  if (/(\p{L})\1\1/u.test(lower)) return undefined;
  // Mixed case past the first letter (`HALLoween`, `SMew`) is how misread letters look.
  const tail = trimmed.slice(1);
  if (tail !== tail.toLowerCase() && tail !== tail.toUpperCase()) return undefined;
  return trimmed;
}

/**
 * The caption from every reading of an item (several frames, several variants of each), in the
 * order first read: a word is kept when the engine was sure of it once, or fairly sure of it
 * twice; each word once (case aside). Empty when nothing passes, which is what an image without
 * text gives.
 */
export function buildCaption(readings: readonly (readonly WordReading[])[]): string {
  const seen = new Map<string, { word: string; order: number; best: number; count: number }>();
  let order = 0;
  for (const reading of readings) {
    const inThisReading = new Set<string>();
    for (const { text, confidence } of reading) {
      const word = cleanWord(text);
      if (!word) continue;
      const key = word.toLowerCase();
      const entry = seen.get(key) ?? { word, order: order++, best: 0, count: 0 };
      if (confidence > entry.best) {
        entry.best = confidence;
        entry.word = word;
      }
      if (!inThisReading.has(key) && confidence >= repeatedConfidence) entry.count += 1;
      inThisReading.add(key);
      seen.set(key, entry);
    }
  }
  const kept = [...seen.values()]
    .filter((entry) => entry.best >= sureConfidence || entry.count >= 2)
    .sort((a, b) => a.order - b.order)
    .map((entry) => entry.word);
  let caption = '';
  for (const word of kept) {
    const next = caption ? `${caption} ${word}` : word;
    if (next.length > maxCaptionLength) break;
    caption = next;
  }
  return caption;
}
