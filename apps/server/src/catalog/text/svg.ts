import type { EmojiArt } from './emoji-art.ts';
import { EM } from './layout.ts';
import type { LayoutUnit, PhraseLayout } from './layout.ts';

/** Numbers in SVG: two decimals at most, no `-0`, so equal frames are equal strings. */
export function fmt(value: number): string {
  const rounded = Math.round(value * 100) / 100;
  return Object.is(rounded, -0) ? '0' : String(rounded);
}

export interface UnitPaint {
  dx?: number;
  dy?: number;
  rotate?: number;
  scaleX?: number;
  scaleY?: number;
  fill?: string;
  stroke?: string;
  strokeWidth?: number;
  opacity?: number;
}

function transformOf(unit: LayoutUnit, paint: UnitPaint): string {
  const parts = [`translate(${fmt(unit.cx + (paint.dx ?? 0))} ${fmt(unit.cy + (paint.dy ?? 0))})`];
  if (paint.rotate) parts.push(`rotate(${fmt(paint.rotate)})`);
  const sx = paint.scaleX ?? 1;
  const sy = paint.scaleY ?? 1;
  if (sx !== 1 || sy !== 1) parts.push(`scale(${fmt(sx)} ${fmt(sy)})`);
  return parts.join(' ');
}

/**
 * One letter or emoji. Letters are outlines with the stroke painted under the fill, so a thick
 * outline never eats into the letter; emoji are the Noto art, which keeps its own colours.
 */
export function drawUnit(
  unit: LayoutUnit,
  paint: UnitPaint,
  options: { isShadow?: boolean } = {},
): string {
  const opacity = paint.opacity ?? 1;
  if (opacity <= 0.001) return '';
  const sx = paint.scaleX ?? 1;
  const sy = paint.scaleY ?? 1;
  if (Math.abs(sx) < 0.01 || Math.abs(sy) < 0.01) return '';
  const transform = transformOf(unit, paint);
  const opacityAttr = opacity < 1 ? ` opacity="${fmt(opacity)}"` : '';
  if (unit.kind === 'emoji') {
    // A shadow of an emoji is its silhouette: the same art through a flood filter.
    const filter = options.isShadow ? ` filter="url(#silhouette)"` : '';
    return `<use href="#${unit.emojiKey}" transform="${transform}"${opacityAttr}${filter}/>`;
  }
  const fill = paint.fill ?? '#fff';
  const stroke = paint.stroke
    ? ` stroke="${paint.stroke}" stroke-width="${fmt(paint.strokeWidth ?? 8)}" stroke-linejoin="round" paint-order="stroke"`
    : '';
  if (unit.kind === 'missing') {
    const w = unit.width * 0.7;
    const h = 0.72 * EM;
    return `<rect x="${fmt(-w / 2)}" y="${fmt(-h / 2)}" width="${fmt(w)}" height="${fmt(h)}" rx="8" fill="none" stroke="${paint.stroke ?? fill}" stroke-width="8" transform="${transform}"${opacityAttr}/>`;
  }
  return `<path d="${unit.path}" fill="${fill}"${stroke} transform="${transform}"${opacityAttr}/>`;
}

/** Emoji art as reusable groups centred on the origin, one em wide. */
export function emojiDefs(layout: PhraseLayout): string {
  return [...layout.emoji].map(([key, art]) => emojiDef(key, art)).join('');
}

export function emojiDef(key: string, art: EmojiArt, size = EM): string {
  const scale = size / art.size;
  return `<g id="${key}" transform="scale(${fmt(scale)}) translate(${fmt(-art.size / 2)} ${fmt(-art.size / 2)})">${art.body}</g>`;
}

/** Turns any drawing into a flat dark shape: used for drop shadows under emoji. */
export const SILHOUETTE_FILTER =
  '<filter id="silhouette" x="0" y="0" width="1" height="1"><feFlood flood-color="#000" flood-opacity="0.55"/><feComposite in2="SourceAlpha" operator="in"/></filter>';
