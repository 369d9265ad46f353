import type { FontId } from './fonts.ts';
import { EM } from './layout.ts';
import type { LayoutUnit, PhraseLayout } from './layout.ts';
import { drawUnit, fmt } from './svg.ts';
import type { UnitPaint } from './svg.ts';

export const textStyleIds = [
  'bounce',
  'typewriter',
  'neon',
  'rainbow',
  'shake',
  'zoom-pop',
  'flip',
] as const;

export type TextStyleId = (typeof textStyleIds)[number];

export interface FrameContext {
  layout: PhraseLayout;
  frame: number;
  frames: number;
  /** Picks one of the style's colour schemes; the starter catalog varies it. */
  theme: number;
  /** A number derived from the phrase, for effects that should differ between phrases. */
  seed: number;
}

export interface TextStyle {
  id: TextStyleId;
  /** What people call it: used in titles and tags. */
  label: string;
  font: FontId;
  frames: number;
  /** Delay of each frame in ms (multiples of 10: GIF counts in centiseconds). */
  delays: (frames: number, layout: PhraseLayout) => number[];
  /** Room the motion needs around the letters, layout px: [top, right, bottom, left]. */
  margin: [number, number, number, number];
  /** Extra `<defs>` content (filters) this style uses. */
  defs?: (context: FrameContext) => string;
  draw: (context: FrameContext) => string;
}

const TAU = Math.PI * 2;
const clamp01 = (value: number) => Math.min(1, Math.max(0, value));
const easeOutBack = (t: number) => {
  const c1 = 1.9;
  const c3 = c1 + 1;
  return 1 + c3 * (t - 1) ** 3 + c1 * (t - 1) ** 2;
};
const pick = <T>(list: readonly T[], index: number): T =>
  list[((index % list.length) + list.length) % list.length]!;

/** A small deterministic generator (mulberry32): the same phrase shakes the same way. */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Draws every unit twice: all shadows first, then all letters, so no shadow covers a letter. */
function drawWithShadow(
  units: LayoutUnit[],
  paintOf: (unit: LayoutUnit, order: number) => UnitPaint,
  shadow: { dx: number; dy: number; color: string } | undefined,
): string {
  const paints = units.map((unit, order) => paintOf(unit, order));
  let out = '';
  if (shadow) {
    units.forEach((unit, order) => {
      const paint = paints[order]!;
      out += drawUnit(
        unit,
        {
          ...paint,
          dx: (paint.dx ?? 0) + shadow.dx,
          dy: (paint.dy ?? 0) + shadow.dy,
          fill: shadow.color,
          stroke: paint.stroke ? shadow.color : undefined,
        },
        { isShadow: true },
      );
    });
  }
  units.forEach((unit, order) => {
    out += drawUnit(unit, paints[order]!);
  });
  return out;
}

const evenDelays = (ms: number) => (frames: number) => Array.from({ length: frames }, () => ms);

const candy = [
  ['#ff4d6d', '#ffb703', '#4cc9f0', '#80ed99', '#c77dff'],
  ['#f72585', '#7209b7', '#4361ee', '#4cc9f0', '#f77f00'],
  ['#ffbe0b', '#fb5607', '#ff006e', '#8338ec', '#3a86ff'],
  ['#06d6a0', '#ffd166', '#ef476f', '#118ab2', '#f78c6b'],
];

const bounce: TextStyle = {
  id: 'bounce',
  label: 'bouncing letters',
  font: 'baloo',
  frames: 12,
  delays: evenDelays(80),
  margin: [0.42 * EM, 0.1 * EM, 0.1 * EM, 0.1 * EM],
  draw: ({ layout, frame, frames, theme }) => {
    const colors = pick(candy, theme);
    return drawWithShadow(
      layout.units,
      (unit, order) => {
        const wave = Math.sin(TAU * (frame / frames - order * 0.09));
        const hop = Math.max(0, wave);
        const squash = Math.max(0, -wave);
        return {
          dy: -hop * 0.36 * EM + squash * 0.04 * EM,
          scaleX: 1 + squash * 0.1,
          scaleY: 1 - squash * 0.12 + hop * 0.04,
          fill: pick(colors, order),
          stroke: '#1d1b3a',
          strokeWidth: 9,
        };
      },
      { dx: 0, dy: 0.06 * EM, color: '#1d1b3a' },
    );
  },
};

const TYPING_FRAMES = 12;

const typewriter: TextStyle = {
  id: 'typewriter',
  label: 'typewriter',
  font: 'notoSans',
  frames: 16,
  // Typing, then a long pause on the whole phrase with the caret blinking.
  delays: (frames) =>
    Array.from({ length: frames }, (_, i) =>
      i < TYPING_FRAMES - 1 ? 80 : i === frames - 1 ? 700 : 260,
    ),
  margin: [0.08 * EM, 0.34 * EM, 0.08 * EM, 0.08 * EM],
  draw: ({ layout, frame, theme }) => {
    const total = layout.units.length;
    const shown = frame < TYPING_FRAMES ? Math.ceil(((frame + 1) / TYPING_FRAMES) * total) : total;
    const previous = frame === 0 ? 0 : Math.ceil((frame / TYPING_FRAMES) * total);
    const ink = pick(['#ffffff', '#fff3b0', '#caf0f8', '#ffe5ec'], theme);
    const caretColor = pick(['#ff3d7f', '#00b4d8', '#ff9f1c', '#8338ec'], theme);
    let out = drawWithShadow(
      layout.units.slice(0, shown),
      (_unit, order) => {
        // The letter just typed lands with a small thump.
        const isFresh = frame < TYPING_FRAMES && order >= previous;
        return {
          scaleX: isFresh ? 1.18 : 1,
          scaleY: isFresh ? 1.18 : 1,
          fill: ink,
          stroke: '#121212',
          strokeWidth: 10,
        };
      },
      undefined,
    );
    const last = layout.units[Math.max(0, shown - 1)];
    const isCaretOn = frame < TYPING_FRAMES || frame % 2 === 0;
    if (last && isCaretOn) {
      const x = last.cx + last.width / 2 + 0.08 * EM;
      out += `<rect x="${fmt(x)}" y="${fmt(last.cy - 0.5 * EM)}" width="${fmt(0.11 * EM)}" height="${fmt(0.95 * EM)}" rx="3" fill="${caretColor}" stroke="#121212" stroke-width="5" paint-order="stroke"/>`;
    }
    return out;
  },
};

const neonTubes = ['#ff3cac', '#2bd2ff', '#fff200', '#39ff14'];
const NEON_PATTERN = [1, 1, 0.92, 1, 0.25, 1, 1, 1, 0.55, 0.12, 1, 1];

const neon: TextStyle = {
  id: 'neon',
  label: 'neon flicker',
  font: 'pacifico',
  frames: NEON_PATTERN.length,
  delays: evenDelays(90),
  margin: [0.16 * EM, 0.16 * EM, 0.16 * EM, 0.16 * EM],
  defs: () =>
    '<filter id="glow" x="-20%" y="-40%" width="140%" height="180%"><feGaussianBlur stdDeviation="7"/></filter>',
  draw: ({ layout, frame, theme, seed }) => {
    const tube = pick(neonTubes, theme);
    const level = NEON_PATTERN[frame]!;
    // One letter is a loose tube that drops out on its own.
    const loose = layout.units.length ? seed % layout.units.length : -1;
    const isLooseOff = frame === 2 || frame === 3 || frame === 7;
    const paintOf = (_unit: LayoutUnit, order: number): UnitPaint => {
      const opacity = order === loose && isLooseOff ? 0.22 : level;
      return { fill: '#fff6fd', stroke: tube, strokeWidth: 7, opacity };
    };
    const glow = layout.units
      .map((unit, order) => {
        const paint = paintOf(unit, order);
        return drawUnit(unit, {
          ...paint,
          fill: tube,
          stroke: tube,
          strokeWidth: 16,
          opacity: (paint.opacity ?? 1) * 0.85,
        });
      })
      .join('');
    const tubes = layout.units.map((unit, order) => drawUnit(unit, paintOf(unit, order))).join('');
    return `<g filter="url(#glow)">${glow}</g>${tubes}`;
  },
};

const rainbow: TextStyle = {
  id: 'rainbow',
  label: 'rainbow wave',
  font: 'luckiest',
  frames: 12,
  delays: evenDelays(80),
  margin: [0.16 * EM, 0.08 * EM, 0.2 * EM, 0.08 * EM],
  draw: ({ layout, frame, frames, theme }) => {
    const t = frame / frames;
    return drawWithShadow(
      layout.units,
      (_unit, order) => {
        const phase = TAU * t - order * 0.55;
        const hue = (order * 32 - t * 360 + theme * 90 + 720) % 360;
        return {
          dy: Math.sin(phase) * 0.12 * EM,
          rotate: Math.cos(phase) * 7,
          fill: `hsl(${Math.round(hue)}, 95%, 60%)`,
          stroke: '#2b2d42',
          strokeWidth: 8,
        };
      },
      { dx: 0.03 * EM, dy: 0.06 * EM, color: '#2b2d42' },
    );
  },
};

const shake: TextStyle = {
  id: 'shake',
  label: 'shake',
  font: 'bangers',
  frames: 10,
  delays: evenDelays(50),
  margin: [0.12 * EM, 0.12 * EM, 0.16 * EM, 0.12 * EM],
  draw: ({ layout, frame, theme, seed }) => {
    const random = createRandom(seed * 31 + frame);
    const jitter = (amount: number) => (random() * 2 - 1) * amount;
    const dx = jitter(0.06 * EM);
    const dy = jitter(0.05 * EM);
    const tilt = jitter(4);
    const [fill, shadow] = pick(
      [
        ['#ffd60a', '#e63946'],
        ['#ffffff', '#ff006e'],
        ['#80ffdb', '#5e60ce'],
        ['#ffadad', '#9d0208'],
      ],
      theme,
    );
    const body = drawWithShadow(
      layout.units,
      () => ({
        dx: jitter(0.025 * EM),
        dy: jitter(0.025 * EM),
        rotate: jitter(5),
        fill,
        stroke: '#000',
        strokeWidth: 9,
      }),
      { dx: 0.05 * EM, dy: 0.06 * EM, color: shadow! },
    );
    const { box } = layout;
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    return `<g transform="translate(${fmt(dx)} ${fmt(dy)}) rotate(${fmt(tilt)} ${fmt(cx)} ${fmt(cy)})">${body}</g>`;
  },
};

const POP_IN = 8;
const POP_HOLD_END = 12;
const POP_FRAMES = 14;

const zoomPop: TextStyle = {
  id: 'zoom-pop',
  label: 'zoom pop',
  font: 'baloo',
  frames: POP_FRAMES,
  delays: (frames) => Array.from({ length: frames }, (_, i) => (i === POP_HOLD_END - 1 ? 900 : 70)),
  margin: [0.2 * EM, 0.2 * EM, 0.2 * EM, 0.2 * EM],
  draw: ({ layout, frame, theme }) => {
    const total = Math.max(1, layout.units.length);
    const [fill, stroke] = pick(
      [
        ['#ffffff', '#7209b7'],
        ['#fff3b0', '#e76f51'],
        ['#caffbf', '#1b4332'],
        ['#ffd6ff', '#3a0ca3'],
      ],
      theme,
    );
    const { box } = layout;
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    const shrink =
      frame >= POP_HOLD_END ? 1 - (frame - POP_HOLD_END + 1) / (POP_FRAMES - POP_HOLD_END + 1) : 1;
    const body = drawWithShadow(
      layout.units,
      (_unit, order) => {
        const start = (order / total) * (POP_IN - 3);
        const t = clamp01((frame - start) / 3);
        const scale = frame >= POP_IN ? 1 : Math.max(0, easeOutBack(t));
        return { scaleX: scale, scaleY: scale, fill, stroke, strokeWidth: 11 };
      },
      { dx: 0, dy: 0.07 * EM, color: stroke! },
    );
    if (shrink >= 1) return body;
    return `<g transform="translate(${fmt(cx)} ${fmt(cy)}) scale(${fmt(Math.max(shrink, 0.02))}) translate(${fmt(-cx)} ${fmt(-cy)})">${body}</g>`;
  },
};

const flip: TextStyle = {
  id: 'flip',
  label: 'flip',
  font: 'luckiest',
  frames: 14,
  delays: (frames) => Array.from({ length: frames }, (_, i) => (i === frames - 1 ? 500 : 70)),
  margin: [0.08 * EM, 0.08 * EM, 0.16 * EM, 0.08 * EM],
  draw: ({ layout, frame, frames, theme }) => {
    const colors = pick(candy, theme + 1);
    const spin = frames - 4;
    return drawWithShadow(
      layout.units,
      (_unit, order) => {
        const start = (order / Math.max(1, layout.units.length)) * (spin - 6);
        const t = clamp01((frame - start) / 6);
        const turn = Math.cos(t * TAU);
        // The back of a turning letter shows in the next colour.
        const isBack = turn < 0;
        return {
          scaleX: Math.abs(turn) < 0.08 ? 0.08 : turn,
          fill: pick(colors, order + (isBack ? 2 : 0)),
          stroke: '#22223b',
          strokeWidth: 8,
        };
      },
      { dx: 0, dy: 0.06 * EM, color: '#22223b' },
    );
  },
};

export const textStyles: Record<TextStyleId, TextStyle> = {
  bounce,
  typewriter,
  neon,
  rainbow,
  shake,
  'zoom-pop': zoomPop,
  flip,
};
