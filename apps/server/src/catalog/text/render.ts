import { createHash } from 'node:crypto';
import { renderAsync } from '@resvg/resvg-js';
import sharp from 'sharp';
import { EM, layoutPhrase } from './layout.ts';
import type { PhraseLayout } from './layout.ts';
import { textStyles } from './styles.ts';
import type { TextStyleId } from './styles.ts';
import { emojiDefs, fmt, SILHOUETTE_FILTER } from './svg.ts';

/** Bump when the output of any style changes, so cached renderings are made anew. */
export const RENDERER_VERSION = 1;

export type AnimationFormat = 'gif' | 'webp';

export interface RenderOptions {
  width: number;
  height: number;
  format: AnimationFormat;
  /** Colour scheme; 0 is the one `text/animate` uses. */
  theme?: number;
}

export interface RenderedAnimation {
  bytes: Buffer;
  format: AnimationFormat;
  width: number;
  height: number;
  frames: number;
  delays: number[];
}

export function phraseSeed(phrase: string): number {
  return createHash('sha256').update(phrase).digest().readUInt32BE(0);
}

/**
 * The SVG of every frame. Layout happens once; each frame is the style's drawing, scaled so the
 * letters plus the room their motion needs fill the canvas.
 */
export function buildFrames(
  phrase: string,
  styleId: TextStyleId,
  options: Omit<RenderOptions, 'format'>,
): { frames: string[]; delays: number[] } {
  const style = textStyles[styleId];
  const { width, height } = options;
  const layout: PhraseLayout = layoutPhrase(phrase, { font: style.font, aspect: width / height });
  // Outlines and shadows reach past the glyphs' ink: keep a little room on every side.
  const room = 0.08 * EM;
  const [top, right, bottom, left] = style.margin.map((side) => side + room) as [
    number,
    number,
    number,
    number,
  ];
  const boxWidth = layout.box.width + left + right;
  const boxHeight = layout.box.height + top + bottom;
  const padding = Math.round(Math.min(width, height) * 0.05);
  // Short words should not fill a whole banner: cap the letter height at 60% of the canvas.
  const scale = Math.min(
    (width - 2 * padding) / boxWidth,
    (height - 2 * padding) / boxHeight,
    (height * 0.6) / EM,
  );
  const tx = width / 2 - (layout.box.x - left + boxWidth / 2) * scale;
  const ty = height / 2 - (layout.box.y - top + boxHeight / 2) * scale;
  const theme = options.theme ?? 0;
  const seed = phraseSeed(phrase);
  const frames: string[] = [];
  for (let frame = 0; frame < style.frames; frame++) {
    const context = { layout, frame, frames: style.frames, theme, seed };
    const defs = `<defs>${SILHOUETTE_FILTER}${style.defs?.(context) ?? ''}${emojiDefs(layout)}</defs>`;
    frames.push(
      `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${defs}<g transform="translate(${fmt(tx)} ${fmt(ty)}) scale(${fmt(scale)})">${style.draw(context)}</g></svg>`,
    );
  }
  return { frames, delays: style.delays(style.frames, layout) };
}

/** Rasterises SVG frames (resvg, off the main thread) and joins them into one animation (sharp). */
export async function encodeAnimation(
  svgFrames: string[],
  options: {
    width: number;
    height: number;
    format: AnimationFormat;
    delays: number[];
    isOpaque?: boolean;
  },
): Promise<Buffer> {
  const { width, height } = options;
  const rendered = await Promise.all(
    svgFrames.map((svg) =>
      renderAsync(svg, { font: { loadSystemFonts: false }, fitTo: { mode: 'original' } }),
    ),
  );
  const frameBytes = width * height * 4;
  const raw = Buffer.alloc(frameBytes * svgFrames.length);
  rendered.forEach((image, index) => {
    if (image.width !== width || image.height !== height) {
      throw new Error(
        `frame ${index} rendered at ${image.width}×${image.height}, expected ${width}×${height}`,
      );
    }
    image.pixels.copy(raw, index * frameBytes);
  });
  const image = sharp(raw, {
    raw: {
      width,
      height: height * svgFrames.length,
      channels: 4,
      premultiplied: true,
      pageHeight: height,
    },
  });
  if (options.format === 'gif') {
    return image.gif({ delay: options.delays, loop: 0, effort: 3, dither: 0.6 }).toBuffer();
  }
  return image
    .webp({
      delay: options.delays,
      loop: 0,
      quality: 82,
      alphaQuality: 90,
      effort: 2,
      smartSubsample: false,
    })
    .toBuffer();
}

/** A phrase drawn in one style, as an animated GIF or WebP with a transparent background. */
export async function renderTextAnimation(
  phrase: string,
  styleId: TextStyleId,
  options: RenderOptions,
): Promise<RenderedAnimation> {
  const { frames, delays } = buildFrames(phrase, styleId, options);
  const bytes = await encodeAnimation(frames, { ...options, delays });
  return {
    bytes,
    format: options.format,
    width: options.width,
    height: options.height,
    frames: frames.length,
    delays,
  };
}
