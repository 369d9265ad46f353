import fs from 'node:fs';
import { createRequire } from 'node:module';
import { Resvg } from '@resvg/resvg-js';

const require = createRequire(import.meta.url);

interface IconifyIcon {
  body: string;
  width?: number;
  height?: number;
}

interface IconifySet {
  icons: Record<string, IconifyIcon>;
  aliases?: Record<string, { parent: string }>;
  width?: number;
  height?: number;
}

export interface EmojiArt {
  /** Noto's name for it, e.g. `grinning-face`. */
  name: string;
  /** SVG markup drawn in a `size`×`size` box at the origin. */
  body: string;
  size: number;
  /** Code points, lower-case hex joined by `-`, without FE0F. */
  hexcode: string;
}

// Noto's art: immutable data read from a package, not state, so kept at module level and read
// on first use (docs/architecture.md, "Services per app").
// eslint-disable-next-line no-restricted-syntax -- immutable data loaded on first use
let cache: { set: IconifySet; chars: Record<string, string> } | undefined;

/**
 * Noto Emoji's SVG art (Apache-2.0), from @iconify-json/noto. 25 MB of JSON: read on first
 * use and kept, since the renderer needs it on every phrase with an emoji in it.
 */
function loadNoto() {
  if (!cache) {
    const read = (file: string) =>
      JSON.parse(fs.readFileSync(require.resolve(`@iconify-json/noto/${file}`), 'utf8')) as unknown;
    cache = {
      set: read('icons.json') as IconifySet,
      chars: read('chars.json') as Record<string, string>,
    };
  }
  return cache;
}

/** `😀` → `1f600`; `❤️` → `2764`; `1️⃣` → `0031-20e3`: the key Noto's character map uses. */
export function toNotoHexcode(emoji: string): string {
  return [...emoji]
    .map((char) => char.codePointAt(0)!)
    .filter((codePoint) => codePoint !== 0xfe0f)
    .map((codePoint) => codePoint.toString(16).padStart(4, '0'))
    .join('-');
}

/** Splits SVG markup into its top-level elements (Noto bodies are plain, well-formed XML). */
export function splitTopLevel(markup: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (const tag of markup.matchAll(/<(\/?)[^>]*?(\/?)>/g)) {
    const [, closing, selfClosing] = tag;
    if (depth === 0) start = tag.index;
    if (closing) depth -= 1;
    else if (!selfClosing) depth += 1;
    if (depth === 0) parts.push(markup.slice(start, tag.index + tag[0].length));
  }
  return parts;
}

function boundingBoxOf(markup: string, size: number) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">${markup}</svg>`;
  return new Resvg(svg, { font: { loadSystemFonts: false } }).getBBox();
}

/**
 * A few Noto SVGs keep leftover shapes hundreds of units outside their box (invisible there).
 * resvg aborts the whole process when it meets a translucent shape that far off the canvas,
 * so shapes outside the box are dropped before the art is drawn anywhere.
 */
function withoutFarShapes(body: string, size: number): string {
  const isInside = (box: { x: number; y: number; width: number; height: number }) =>
    box.x >= -size / 4 &&
    box.y >= -size / 4 &&
    box.x + box.width <= size * 1.25 &&
    box.y + box.height <= size * 1.25;
  const whole = boundingBoxOf(body, size);
  if (!whole || isInside(whole)) return body;
  const parts = splitTopLevel(body);
  const definitions = parts.filter((part) =>
    /^<(linearGradient|radialGradient|defs|clipPath|mask)\b/.test(part),
  );
  return parts
    .filter((part) => {
      if (definitions.includes(part)) return true;
      const box = boundingBoxOf(definitions.join('') + part, size);
      return !box || isInside(box);
    })
    .join('');
}

// Art derived from that data, the same for every app: immutable too (see `cache` above).
// eslint-disable-next-line no-restricted-syntax -- immutable data loaded on first use
const artByName = new Map<string, EmojiArt>();

export function findEmojiArtByName(name: string): EmojiArt | undefined {
  const { set } = loadNoto();
  const resolved = set.icons[name] ? name : set.aliases?.[name]?.parent;
  const icon = resolved ? set.icons[resolved] : undefined;
  if (!resolved || !icon) return undefined;
  let art = artByName.get(resolved);
  if (!art) {
    const size = icon.width ?? set.width ?? 128;
    art = { name: resolved, body: withoutFarShapes(icon.body, size), size, hexcode: '' };
    artByName.set(resolved, art);
  }
  return art;
}

/** The art for one grapheme, if Noto draws it. */
export function findEmojiArt(emoji: string): EmojiArt | undefined {
  const { chars } = loadNoto();
  const hexcode = toNotoHexcode(emoji);
  const name = chars[hexcode];
  if (!name) return undefined;
  const art = findEmojiArtByName(name);
  return art && { ...art, hexcode };
}

const EMOJI_PRESENTATION = /\p{Emoji_Presentation}|\ufe0f|\u20e3|\p{Regional_Indicator}/u;

/**
 * Whether a grapheme should be drawn as emoji art rather than as a letter: `©` or `1` stay text,
 * `😀`, `❤️` and `1️⃣` are emoji.
 */
export function isEmojiGrapheme(grapheme: string): boolean {
  return (
    EMOJI_PRESENTATION.test(grapheme) &&
    /\p{Extended_Pictographic}|\u20e3|\p{Regional_Indicator}/u.test(grapheme)
  );
}

/** Where the art comes from: the SVG in googlefonts/noto-emoji. */
export function notoSourceUrl(hexcode: string): string {
  const file = hexcode.replaceAll('-', '_');
  return `https://github.com/googlefonts/noto-emoji/blob/main/svg/emoji_u${file}.svg`;
}
