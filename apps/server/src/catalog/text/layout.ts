import * as hb from 'harfbuzzjs';
import { findEmojiArt, isEmojiGrapheme } from './emoji-art.ts';
import type { EmojiArt } from './emoji-art.ts';
import { hasGlyphsFor, loadFont, pickFont } from './fonts.ts';
import type { FontId } from './fonts.ts';

/** Layout happens at this size (px per em); styles scale the result to the canvas. */
export const EM = 100;

/** One grapheme, placed: what styles animate one at a time (a letter, an emoji). */
export interface LayoutUnit {
  /** Position in the phrase (logical order), for effects that run letter by letter. */
  index: number;
  kind: 'glyph' | 'emoji' | 'missing';
  /** Outline in px, relative to the unit's centre (kind `glyph`). */
  path: string;
  /** Key into `PhraseLayout.emoji` (kind `emoji`). */
  emojiKey: string;
  /** Centre of the unit's box in layout px; rotations and scales pivot here. */
  cx: number;
  cy: number;
  width: number;
  line: number;
}

export interface PhraseLayout {
  units: LayoutUnit[];
  /** Emoji art used, keyed by `LayoutUnit.emojiKey`. */
  emoji: Map<string, EmojiArt>;
  /** Ink box of all units, layout px. */
  box: { x: number; y: number; width: number; height: number };
  lines: number;
  /** Number of graphemes, spaces included. */
  length: number;
}

const segmenter = new Intl.Segmenter('und', { granularity: 'grapheme' });

export function splitGraphemes(text: string): string[] {
  return Array.from(segmenter.segment(text), (part) => part.segment);
}

interface Token {
  index: number;
  text: string;
  kind: 'space' | 'glyph' | 'emoji' | 'missing';
  font?: FontId;
  art?: EmojiArt;
}

function classify(graphemes: string[], primary: FontId): Token[] {
  const tokens: Token[] = [];
  let previousFont: FontId | undefined;
  graphemes.forEach((text, index) => {
    if (/^\s+$/u.test(text)) {
      tokens.push({ index, text: ' ', kind: 'space' });
      return;
    }
    if (isEmojiGrapheme(text)) {
      const art = findEmojiArt(text);
      if (art) {
        tokens.push({ index, text, kind: 'emoji', art });
        return;
      }
    }
    // Punctuation and digits after Arabic stay in the Arabic run, so shaping and direction
    // hold; letters always get the style's own font when it has them.
    let font = pickFont(text, primary);
    const isNeutral = /^[\p{P}\p{S}\p{N}\p{M}]+$/u.test(text);
    if (
      isNeutral &&
      font &&
      previousFont &&
      font !== previousFont &&
      hasGlyphsFor(loadFont(previousFont), text)
    ) {
      font = previousFont;
    }
    if (!font) {
      tokens.push({ index, text, kind: 'missing' });
      return;
    }
    previousFont = font;
    tokens.push({ index, text, kind: 'glyph', font });
  });
  return tokens;
}

interface PlacedGlyph {
  id: number;
  x: number;
  y: number;
}

interface ShapedUnit {
  token: Token;
  /** Left edge relative to the line start, layout px. */
  x: number;
  advance: number;
  glyphs: PlacedGlyph[];
  ink: { x0: number; x1: number; y0: number; y1: number };
}

const EMOJI_ADVANCE = 1.12 * EM;
const MISSING_ADVANCE = 0.7 * EM;

/** Shapes a run of tokens that share one font; glyphs come back in visual order. */
function shapeRun(tokens: Token[], fontId: FontId): ShapedUnit[] {
  const loaded = loadFont(fontId);
  const scale = EM / loaded.upem;
  let text = '';
  const starts: number[] = [];
  for (const token of tokens) {
    starts.push(text.length);
    text += token.text;
  }
  const buffer = new hb.Buffer();
  buffer.addText(text);
  buffer.guessSegmentProperties();
  hb.shape(loaded.font, buffer);
  const infos = buffer.getGlyphInfos();
  const positions = buffer.getGlyphPositions();
  const units = new Map<number, ShapedUnit>();
  let pen = 0;
  infos.forEach((info, i) => {
    const position = positions[i]!;
    // Clusters are UTF-16 offsets into `text`: find the token that holds this one.
    let tokenIndex = 0;
    while (tokenIndex + 1 < starts.length && starts[tokenIndex + 1]! <= info.cluster) tokenIndex++;
    const token = tokens[tokenIndex]!;
    let unit = units.get(tokenIndex);
    if (!unit) {
      unit = {
        token,
        x: pen * scale,
        advance: 0,
        glyphs: [],
        ink: { x0: Infinity, x1: -Infinity, y0: Infinity, y1: -Infinity },
      };
      units.set(tokenIndex, unit);
    }
    unit.x = Math.min(unit.x, pen * scale);
    const gx = (pen + position.xOffset) * scale;
    const gy = position.yOffset * scale;
    unit.glyphs.push({ id: info.codepoint, x: gx, y: gy });
    const extents = loaded.font.glyphExtents(info.codepoint);
    if (extents && extents.width !== 0) {
      unit.ink.x0 = Math.min(unit.ink.x0, gx + extents.xBearing * scale);
      unit.ink.x1 = Math.max(unit.ink.x1, gx + (extents.xBearing + extents.width) * scale);
      unit.ink.y0 = Math.min(unit.ink.y0, gy + (extents.yBearing + extents.height) * scale);
      unit.ink.y1 = Math.max(unit.ink.y1, gy + extents.yBearing * scale);
    }
    unit.advance += position.xAdvance * scale;
    pen += position.xAdvance;
  });
  // Glyph and ink positions so far are relative to the run; make them relative to the unit.
  for (const unit of units.values()) {
    for (const glyph of unit.glyphs) glyph.x -= unit.x;
    unit.ink.x0 -= unit.x;
    unit.ink.x1 -= unit.x;
  }
  return [...units.values()].sort((a, b) => a.x - b.x);
}

const RTL_CHAR =
  /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;
const STRONG_CHAR = /[\p{L}]/u;

/** Whether a line reads right to left: its first letter decides (the bidi paragraph rule). */
function isRightToLeft(tokens: Token[]): boolean {
  for (const token of tokens) {
    const strong = [...token.text].find((char) => STRONG_CHAR.test(char));
    if (strong) return RTL_CHAR.test(strong);
  }
  return false;
}

/**
 * Shapes one line: runs of letters in one font go through HarfBuzz together; emoji and missing
 * characters are boxes between them. In a right-to-left line the pieces are laid out from the
 * right (HarfBuzz already orders the glyphs inside each run).
 */
function shapeLine(tokens: Token[], primary: FontId): ShapedUnit[] {
  const pieces: ShapedUnit[][] = [];
  let run: Token[] = [];
  const flush = () => {
    if (run.length) pieces.push(shapeRun(run, run[0]!.font ?? primary));
    run = [];
  };
  for (const token of tokens) {
    if (token.kind === 'glyph' || token.kind === 'space') {
      // A space joins the run around it, with that run's font.
      const font = token.kind === 'space' ? (run[0]?.font ?? primary) : token.font!;
      if (run.length && run[0]!.font !== font) flush();
      run.push({ ...token, font });
      continue;
    }
    flush();
    const isEmoji = token.kind === 'emoji';
    const advance = isEmoji ? EMOJI_ADVANCE : MISSING_ADVANCE;
    const inset = isEmoji ? (advance - EM) / 2 : 0.1 * EM;
    pieces.push([
      {
        token,
        x: 0,
        advance,
        glyphs: [],
        // Emoji art is one em square, centred on the letters' middle; a missing glyph is a box.
        ink: isEmoji
          ? { x0: inset, x1: advance - inset, y0: -0.14 * EM, y1: 0.86 * EM }
          : { x0: inset, x1: advance - inset, y0: 0, y1: 0.72 * EM },
      },
    ]);
  }
  flush();
  if (isRightToLeft(tokens)) pieces.reverse();
  const placed: ShapedUnit[] = [];
  let x = 0;
  for (const piece of pieces) {
    for (const unit of piece) placed.push({ ...unit, x: x + unit.x });
    x += piece.reduce((sum, unit) => sum + unit.advance, 0);
  }
  return placed;
}

function lineWidth(units: ShapedUnit[]): number {
  return units.reduce((widest, unit) => Math.max(widest, unit.x + unit.advance), 0);
}

/** Greedy breaking at spaces (or anywhere, for a word wider than the line) to a target width. */
function breakLines(
  tokens: Token[],
  primary: FontId,
  target: number,
  canSplitWords: boolean,
): Token[][] {
  const words: Token[][] = [];
  let word: Token[] = [];
  for (const token of tokens) {
    if (token.kind === 'space') {
      if (word.length) words.push(word);
      word = [];
    } else word.push(token);
  }
  if (word.length) words.push(word);
  const spaceWidth = lineWidth(shapeLine([{ index: 0, text: ' ', kind: 'space' }], primary));
  const lines: Token[][] = [];
  let current: Token[] = [];
  let currentWidth = 0;
  const space = (index: number): Token => ({ index, text: ' ', kind: 'space' });
  for (const w of words) {
    const width = lineWidth(shapeLine(w, primary));
    if (current.length && currentWidth + spaceWidth + width > target) {
      lines.push(current);
      current = [];
      currentWidth = 0;
    }
    if (canSplitWords && width > target && w.length > 1) {
      // One long word (or a CJK sentence): split it between graphemes.
      for (const token of w) {
        const tokenWidth = lineWidth(shapeLine([token], primary));
        if (current.length && currentWidth + tokenWidth > target) {
          lines.push(current);
          current = [];
          currentWidth = 0;
        }
        current.push(token);
        currentWidth += tokenWidth;
      }
      continue;
    }
    if (current.length) {
      current.push(space(w[0]!.index - 1));
      currentWidth += spaceWidth;
    }
    current.push(...w);
    currentWidth += width;
  }
  if (current.length) lines.push(current);
  return lines;
}

function glyphPath(fontId: FontId, glyph: PlacedGlyph, dx: number, dy: number): string {
  const loaded = loadFont(fontId);
  const scale = EM / loaded.upem;
  const round = (value: number) => Math.round(value * 10) / 10;
  return loaded.font
    .glyphToJson(glyph.id)
    .map((command) => {
      const values: number[] = [];
      for (let i = 0; i < command.values.length; i += 2) {
        values.push(round(command.values[i]! * scale + glyph.x - dx));
        values.push(round(-(command.values[i + 1]! * scale + glyph.y) - dy));
      }
      return command.type + values.join(' ');
    })
    .join('');
}

export interface LayoutOptions {
  font: FontId;
  /** Width ÷ height of the area the text should fill; decides how many lines to use. */
  aspect: number;
  lineHeight?: number;
}

/**
 * Lays a phrase out at EM px per em: letters shaped by HarfBuzz with per-script fallback
 * fonts, emoji as Noto art, broken into the number of lines that fills `aspect` best.
 */
export function layoutPhrase(phrase: string, options: LayoutOptions): PhraseLayout {
  const graphemes = splitGraphemes(phrase.trim().replace(/\s+/gu, ' '));
  const tokens = classify(graphemes, options.font);
  const lineHeight = (options.lineHeight ?? 1.2) * EM;
  const fullWidth = lineWidth(shapeLine(tokens, options.font));
  // Only a phrase without spaces (Japanese, Thai, one long word) may break inside a word.
  const canSplitWords = !tokens.some((token) => token.kind === 'space');
  let best: { lines: Token[][]; score: number } | undefined;
  for (let count = 1; count <= 4; count++) {
    let lines = [tokens];
    // Widen the target until the phrase fits in `count` lines (words are not cut evenly).
    for (let target = fullWidth / count; count > 1 && target < fullWidth; target *= 1.08) {
      lines = breakLines(tokens, options.font, target, canSplitWords);
      if (lines.length <= count) break;
    }
    const widest = Math.max(...lines.map((line) => lineWidth(shapeLine(line, options.font))));
    // The scale at which this block fits the area: bigger is better.
    const score = Math.min(options.aspect / widest, 1 / (lines.length * lineHeight));
    if (!best || score > best.score * 1.04) best = { lines, score };
  }
  const units: LayoutUnit[] = [];
  const emoji = new Map<string, EmojiArt>();
  let x0 = Infinity;
  let x1 = -Infinity;
  let y0 = Infinity;
  let y1 = -Infinity;
  best!.lines.forEach((line, lineIndex) => {
    const shaped = shapeLine(line, options.font);
    const offset = -lineWidth(shaped) / 2;
    const baseline = lineIndex * lineHeight;
    for (const unit of shaped) {
      if (unit.token.kind === 'space') continue;
      const left = offset + unit.x;
      const cx = left + unit.advance / 2;
      const cy = baseline - 0.36 * EM;
      let path = '';
      let emojiKey = '';
      if (unit.token.kind === 'glyph') {
        path = unit.glyphs
          .map((glyph) => glyphPath(unit.token.font!, glyph, cx - left, cy - baseline))
          .join('');
      } else if (unit.token.kind === 'emoji') {
        emojiKey = `e${emoji.size}`;
        const existing = [...emoji].find(([, art]) => art.name === unit.token.art!.name);
        if (existing) emojiKey = existing[0];
        else emoji.set(emojiKey, unit.token.art!);
      }
      if (unit.ink.x0 <= unit.ink.x1) {
        x0 = Math.min(x0, left + unit.ink.x0);
        x1 = Math.max(x1, left + unit.ink.x1);
        y0 = Math.min(y0, baseline - unit.ink.y1);
        y1 = Math.max(y1, baseline - unit.ink.y0);
      }
      units.push({
        index: unit.token.index,
        kind:
          unit.token.kind === 'emoji'
            ? 'emoji'
            : unit.token.kind === 'missing'
              ? 'missing'
              : 'glyph',
        path,
        emojiKey,
        cx,
        cy,
        width: unit.advance,
        line: lineIndex,
      });
    }
  });
  if (!units.length || x0 > x1) {
    x0 = -EM / 2;
    x1 = EM / 2;
    y0 = -EM;
    y1 = 0;
  }
  return {
    units,
    emoji,
    box: { x: x0, y: y0, width: x1 - x0, height: y1 - y0 },
    lines: best!.lines.length,
    length: graphemes.length,
  };
}
