import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { findEmojiArt, isEmojiGrapheme, notoSourceUrl } from './emoji-art.ts';
import { layoutPhrase, splitGraphemes } from './layout.ts';
import { renderTextAnimation } from './render.ts';
import { textStyleIds, textStyles } from './styles.ts';

/** Frames of an animation as raw RGBA, one buffer per frame. */
async function decodeFrames(bytes: Buffer) {
  const image = sharp(bytes, { animated: true });
  const meta = await image.metadata();
  const { data, info } = await image.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const pageHeight = meta.pageHeight ?? meta.height!;
  const frameBytes = info.width * pageHeight * 4;
  const frames = Array.from({ length: meta.pages ?? 1 }, (_, index) =>
    data.subarray(index * frameBytes, (index + 1) * frameBytes),
  );
  return { meta, width: info.width, pageHeight, frames };
}

function alphaStats(frame: Buffer) {
  let transparent = 0;
  let opaque = 0;
  for (let index = 3; index < frame.length; index += 4) {
    if (frame[index] === 0) transparent += 1;
    else if (frame[index] === 255) opaque += 1;
  }
  const pixels = frame.length / 4;
  return { transparent: transparent / pixels, opaque: opaque / pixels };
}

const size = { width: 192, height: 108 };

describe('animated text renderer', () => {
  it('offers at least six distinct styles, each with its own look', () => {
    expect(textStyleIds.length).toBeGreaterThanOrEqual(6);
    expect(new Set(textStyleIds.map((id) => textStyles[id].label)).size).toBe(textStyleIds.length);
    expect(new Set(textStyleIds.map((id) => textStyles[id].font)).size).toBeGreaterThanOrEqual(3);
  });

  for (const style of textStyleIds) {
    for (const format of ['gif', 'webp'] as const) {
      it(`${style} as ${format}: an animation of the size asked, transparent around the letters`, async () => {
        const rendered = await renderTextAnimation('Hello 👋', style, { ...size, format });
        const { meta, width, pageHeight, frames } = await decodeFrames(rendered.bytes);
        expect(meta.format).toBe(format);
        expect(width).toBe(size.width);
        expect(pageHeight).toBe(size.height);
        // Identical neighbouring frames are merged by the encoder, their delays added up.
        expect(frames.length).toBeGreaterThan(1);
        expect(frames.length).toBeLessThanOrEqual(textStyles[style].frames);
        expect(meta.delay).toHaveLength(frames.length);
        const sum = (delays: number[]) => delays.reduce((total, delay) => total + delay, 0);
        expect(sum(meta.delay!)).toBe(sum(rendered.delays));
        expect(meta.loop).toBe(0);
        // The letters are drawn solid, and the background stays see-through in every frame.
        const stats = frames.map(alphaStats);
        expect(Math.min(...stats.map((frame) => frame.transparent))).toBeGreaterThan(0.3);
        expect(Math.max(...stats.map((frame) => frame.opaque))).toBeGreaterThan(0.05);
        // And it moves: not every frame is the same picture.
        expect(new Set(frames.map((frame) => frame.toString('base64'))).size).toBeGreaterThan(1);
      });
    }
  }

  it('gives the same bytes for the same phrase and style, and different ones otherwise', async () => {
    const options = { ...size, format: 'gif' as const };
    const first = await renderTextAnimation('Same again', 'rainbow', options);
    const second = await renderTextAnimation('Same again', 'rainbow', options);
    expect(second.bytes.equals(first.bytes)).toBe(true);
    const other = await renderTextAnimation('Same again!', 'rainbow', options);
    expect(other.bytes.equals(first.bytes)).toBe(false);
    const webp = { ...size, format: 'webp' as const };
    const webpFirst = await renderTextAnimation('Same again', 'shake', webp);
    const webpSecond = await renderTextAnimation('Same again', 'shake', webp);
    expect(webpSecond.bytes.equals(webpFirst.bytes)).toBe(true);
  });

  it('draws letters of many scripts with the fallback fonts, and emoji as Noto art', () => {
    for (const phrase of ['Привет', 'こんにちは', '안녕', 'مرحبا', 'สวัสดี', 'नमस्ते', 'Ωμέγα']) {
      const layout = layoutPhrase(phrase, { font: 'bangers', aspect: 16 / 9 });
      expect(layout.units.length, phrase).toBeGreaterThan(0);
      expect(
        layout.units.every((unit) => unit.kind === 'glyph' && unit.path.length > 0),
        phrase,
      ).toBe(true);
    }
    // Latin after Cyrillic is back in the style's own font, not left in the fallback.
    const numbers = (path: string) => path.match(/-?\d+(\.\d+)?/g)!.map(Number);
    const latin = numbers(
      layoutPhrase('Привет Hello', { font: 'bangers', aspect: 4 }).units.at(-1)!.path,
    );
    const alone = numbers(layoutPhrase('Hello', { font: 'bangers', aspect: 4 }).units.at(-1)!.path);
    expect(latin).toHaveLength(alone.length);
    latin.forEach((value, index) => expect(value).toBeCloseTo(alone[index]!, 0));
    const mixed = layoutPhrase('hi 👋🏽 ❤️', { font: 'baloo', aspect: 2 });
    expect(mixed.units.map((unit) => unit.kind)).toEqual(['glyph', 'glyph', 'emoji', 'emoji']);
    expect(mixed.emoji.size).toBe(2);
  });

  it('keeps one emoji, one accented letter or one family as a single character', () => {
    expect(splitGraphemes('e\u0301👨‍👩‍👧1️⃣')).toEqual(['e\u0301', '👨‍👩‍👧', '1️⃣']);
    expect(isEmojiGrapheme('😀')).toBe(true);
    expect(isEmojiGrapheme('1️⃣')).toBe(true);
    expect(isEmojiGrapheme('1')).toBe(false);
    expect(isEmojiGrapheme('©')).toBe(false);
    expect(findEmojiArt('❤️')?.name).toBe('red-heart');
    expect(notoSourceUrl(findEmojiArt('😀')!.hexcode)).toBe(
      'https://github.com/googlefonts/noto-emoji/blob/main/svg/emoji_u1f600.svg',
    );
  });

  it('wraps a long phrase onto several lines and keeps a short one on one', () => {
    const long = layoutPhrase('The quick brown fox jumps over the lazy dog, twice', {
      font: 'baloo',
      aspect: 16 / 9,
    });
    expect(long.lines).toBeGreaterThan(1);
    expect(layoutPhrase('LOL', { font: 'baloo', aspect: 16 / 9 }).lines).toBe(1);
    // Words are not cut in half when the phrase has spaces to break at.
    const words = layoutPhrase('Привет мир', { font: 'baloo', aspect: 1 });
    expect(words.lines).toBe(2);
    expect(words.units.filter((unit) => unit.line === 0)).toHaveLength('Привет'.length);
  });
});
