import fs from 'node:fs';
import { createRequire } from 'node:module';
import { findCredit } from '@sticky/contracts';
import type { Credit } from '@sticky/contracts';
import * as hb from 'harfbuzzjs';

const require = createRequire(import.meta.url);

/**
 * Every font the renderer may draw with. All are TTF files shipped by npm packages under open
 * licences (see packages/contracts/src/credits.ts); resvg cannot read woff2, and we shape and
 * outline glyphs ourselves with HarfBuzz, so TTF is what we need.
 */
export const fontFiles = {
  baloo: '@expo-google-fonts/baloo-2/800ExtraBold/Baloo2_800ExtraBold.ttf',
  bangers: '@expo-google-fonts/bangers/400Regular/Bangers_400Regular.ttf',
  pacifico: '@expo-google-fonts/pacifico/400Regular/Pacifico_400Regular.ttf',
  luckiest: '@expo-google-fonts/luckiest-guy/400Regular/LuckiestGuy_400Regular.ttf',
  notoSans: '@expo-google-fonts/noto-sans/800ExtraBold/NotoSans_800ExtraBold.ttf',
  notoArabic: '@expo-google-fonts/noto-sans-arabic/700Bold/NotoSansArabic_700Bold.ttf',
  notoThai: '@expo-google-fonts/noto-sans-thai/700Bold/NotoSansThai_700Bold.ttf',
  notoJp: '@expo-google-fonts/noto-sans-jp/700Bold/NotoSansJP_700Bold.ttf',
  notoKr: '@expo-google-fonts/noto-sans-kr/700Bold/NotoSansKR_700Bold.ttf',
} as const;

export type FontId = keyof typeof fontFiles;

/** Each font's entry in the credits (name, licence, where it comes from). */
const creditNames: Record<FontId, string> = {
  baloo: 'Baloo 2',
  bangers: 'Bangers',
  pacifico: 'Pacifico',
  luckiest: 'Luckiest Guy',
  notoSans: 'Noto Sans',
  notoArabic: 'Noto Sans Arabic',
  notoThai: 'Noto Sans Thai',
  notoJp: 'Noto Sans JP',
  notoKr: 'Noto Sans KR',
};

export function fontCredit(id: FontId): Credit {
  return findCredit(creditNames[id]);
}

/** Fonts tried, in order, for a character the style's own font lacks. */
export const fallbackFonts: readonly FontId[] = [
  'notoSans',
  'baloo',
  'notoArabic',
  'notoThai',
  'notoJp',
  'notoKr',
];

export interface LoadedFont {
  id: FontId;
  font: hb.Font;
  /** Font units per em. */
  upem: number;
  ascender: number;
  descender: number;
}

// Fonts shipped in packages: immutable data, not state, so kept at module level and read on
// first use (docs/architecture.md, "Services per app").
// eslint-disable-next-line no-restricted-syntax -- immutable data loaded on first use
const loaded = new Map<FontId, LoadedFont>();

/** Opens a font once per process; the CJK fonts (5 MB each) are only read when a phrase needs them. */
export function loadFont(id: FontId): LoadedFont {
  const cached = loaded.get(id);
  if (cached) return cached;
  const data = fs.readFileSync(require.resolve(fontFiles[id]));
  const face = new hb.Face(new hb.Blob(new Uint8Array(data)));
  const font = new hb.Font(face);
  const extents = font.hExtents();
  const entry: LoadedFont = {
    id,
    font,
    upem: face.upem,
    ascender: extents.ascender,
    descender: extents.descender,
  };
  loaded.set(id, entry);
  return entry;
}

/** Characters a font need not have itself: joiners and selectors that only steer shaping. */
function isIgnorable(codePoint: number): boolean {
  return (
    codePoint === 0x200c ||
    codePoint === 0x200d ||
    (codePoint >= 0xfe00 && codePoint <= 0xfe0f) ||
    (codePoint >= 0xe0100 && codePoint <= 0xe01ef)
  );
}

export function hasGlyphsFor(font: LoadedFont, text: string): boolean {
  for (const char of text) {
    const codePoint = char.codePointAt(0)!;
    if (isIgnorable(codePoint)) continue;
    const glyph = font.font.nominalGlyph(codePoint);
    if (!glyph) return false;
  }
  return true;
}

/** The first font in the style's chain that draws every character of a grapheme. */
export function pickFont(grapheme: string, primary: FontId): FontId | undefined {
  for (const id of [primary, ...fallbackFonts]) {
    if (hasGlyphsFor(loadFont(id), grapheme)) return id;
  }
  return undefined;
}
