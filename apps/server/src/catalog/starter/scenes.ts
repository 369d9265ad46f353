import { findEmojiArtByName } from '../text/emoji-art.ts';
import type { EmojiArt } from '../text/emoji-art.ts';
import { EM, layoutPhrase } from '../text/layout.ts';
import { encodeAnimation, phraseSeed } from '../text/render.ts';
import type { AnimationFormat } from '../text/render.ts';
import { createRandom } from '../text/styles.ts';
import { drawUnit, emojiDef, emojiDefs, fmt } from '../text/svg.ts';

/** Full-frame GIF scenes: a background, an emoji subject that moves, and weather around it. */
export const sceneKinds = [
  'confetti',
  'fireworks',
  'hearts',
  'rain',
  'snow',
  'applause',
  'sparkles',
  'bubbles',
  'sunshine',
  'sleepy',
  'balloons',
  'leaves',
  'disco',
] as const;

export type SceneKind = (typeof sceneKinds)[number];

export interface SceneSpec {
  kind: SceneKind;
  /** Noto emoji name of the main subject, e.g. `birthday-cake`. */
  subject: string;
  /** A second subject beside the first, for pairs ("two cats"), optional. */
  partner?: string;
  caption?: string;
  /** Emoji names drawn as particles, for scenes made of emoji (hearts, balloons, leaves). */
  particles?: string[];
  /** Background colours, top then bottom; each scene has its own default. */
  sky?: [string, string];
}

/** A one-second loop at ten frames a second: enough for weather, cheap to encode. */
export const SCENE_FRAMES = 10;
export const SCENE_DELAY_MS = 100;
const TAU = Math.PI * 2;

const defaultSkies: Record<SceneKind, [string, string]> = {
  confetti: ['#ffe9f3', '#ffd1e6'],
  fireworks: ['#0b1026', '#2a1b5c'],
  hearts: ['#ffd6e7', '#ff8fb8'],
  rain: ['#5d6d87', '#2f3b52'],
  snow: ['#16345f', '#5b7fb5'],
  applause: ['#ffe066', '#ff9f43'],
  sparkles: ['#3c1a78', '#9d4edd'],
  bubbles: ['#48cae4', '#03045e'],
  sunshine: ['#8ed6ff', '#fff1a8'],
  sleepy: ['#0d1b2a', '#33415c'],
  balloons: ['#c7f0ff', '#fdfdfd'],
  leaves: ['#ffd8a8', '#f08c00'],
  disco: ['#240046', '#10002b'],
};

const confettiColors = [
  '#ff4d6d',
  '#ffb703',
  '#4cc9f0',
  '#80ed99',
  '#c77dff',
  '#f72585',
  '#ffffff',
];

function art(name: string): EmojiArt {
  const found = findEmojiArtByName(name);
  if (!found) throw new Error(`no Noto emoji art named ${name}`);
  return found;
}

/** A value that moves from 0 to 1 `laps` whole times per loop, so the loop has no seam. */
const lap = (start: number, t: number, laps = 1) => (((start + t * laps) % 1) + 1) % 1;

interface SceneContext {
  width: number;
  height: number;
  t: number;
}

type Layer = (context: SceneContext) => string;

function particlesLayer(
  kind: SceneKind,
  particleKeys: string[],
  seed: number,
): { back: Layer; front: Layer } {
  // Particle positions are drawn once from the scene's seed, then moved by t in every frame.
  const setup = createRandom(seed);
  const many = (count: number) =>
    Array.from({ length: count }, () => [setup(), setup(), setup(), setup()] as const);
  const none: Layer = () => '';
  switch (kind) {
    case 'confetti': {
      const bits = many(46);
      const layer =
        (half: 0 | 1): Layer =>
        ({ width, height, t }) =>
          bits
            .filter((_, i) => i % 2 === half)
            .map(([a, b, c, d], i) => {
              const y = lap(b, t, 1 + (i % 2)) * (height + 40) - 20;
              const x = a * width + Math.sin(TAU * (t + c)) * 12;
              const color = confettiColors[Math.floor(d * confettiColors.length)]!;
              const spin = 360 * lap(c, t, 1 + (i % 3));
              return i % 3 === 0
                ? `<circle cx="${fmt(x)}" cy="${fmt(y)}" r="${fmt(3 + d * 3)}" fill="${color}"/>`
                : `<rect x="-5" y="-3" width="10" height="6" fill="${color}" transform="translate(${fmt(x)} ${fmt(y)}) rotate(${fmt(spin)}) scale(${fmt(Math.cos(TAU * lap(d, t)))} 1)"/>`;
            })
            .join('');
      return { back: layer(0), front: layer(1) };
    }
    case 'fireworks': {
      const bursts = many(4);
      const stars = many(24);
      const back: Layer = ({ width, height, t }) => {
        let out = stars
          .map(
            ([a, b, c]) =>
              `<circle cx="${fmt(a * width)}" cy="${fmt(b * height * 0.8)}" r="1.4" fill="#fff" opacity="${fmt(0.35 + 0.6 * Math.abs(Math.sin(TAU * (t + c))))}"/>`,
          )
          .join('');
        bursts.forEach(([a, b, c, d], i) => {
          const age = lap(i / bursts.length, t);
          const cx = (0.15 + a * 0.7) * width;
          const cy = (0.15 + b * 0.4) * height;
          const radius = (1 - (1 - age) ** 3) * (38 + d * 30);
          const color = confettiColors[Math.floor(c * 6)]!;
          const opacity = Math.max(0, 1 - age * 1.1);
          for (let k = 0; k < 14; k++) {
            const angle = (TAU * k) / 14 + c;
            const x = cx + Math.cos(angle) * radius;
            const y = cy + Math.sin(angle) * radius + age * age * 14;
            out += `<circle cx="${fmt(x)}" cy="${fmt(y)}" r="${fmt(2.8 - age * 1.5)}" fill="${color}" opacity="${fmt(opacity)}"/>`;
          }
          if (age < 0.15)
            out += `<circle cx="${fmt(cx)}" cy="${fmt(cy)}" r="${fmt(9 - age * 40)}" fill="#fff" opacity="0.9"/>`;
        });
        return out;
      };
      return { back, front: none };
    }
    case 'hearts':
    case 'balloons':
    case 'leaves': {
      const falling = kind === 'leaves';
      const items = many(kind === 'balloons' ? 9 : 12);
      const layer =
        (half: 0 | 1): Layer =>
        ({ width, height, t }) =>
          items
            .filter((_, i) => i % 2 === half)
            .map(([a, b, c, d], i) => {
              const travel = lap(b, t) * (height + 80) - 40;
              const y = falling ? travel : height - travel;
              const x = a * width + Math.sin(TAU * (t + c)) * 14;
              const size = 0.18 + d * 0.16;
              const rotate = falling ? 360 * lap(c, t) : Math.sin(TAU * (t + d)) * 12;
              const key = particleKeys[(i * 2 + half) % particleKeys.length]!;
              return `<use href="#${key}" transform="translate(${fmt(x)} ${fmt(y)}) rotate(${fmt(rotate)}) scale(${fmt(size * (height / 240))})"/>`;
            })
            .join('');
      return { back: layer(0), front: layer(1) };
    }
    case 'rain': {
      const drops = many(60);
      const back: Layer = ({ width, height, t }) =>
        drops
          .map(([a, b, c]) => {
            const y = lap(b, t, 2) * (height + 30) - 30;
            const x = a * width - y * 0.12;
            return `<line x1="${fmt(x)}" y1="${fmt(y)}" x2="${fmt(x - 3)}" y2="${fmt(y + 14 + c * 8)}" stroke="#cfe8ff" stroke-width="2" stroke-linecap="round" opacity="0.7"/>`;
          })
          .join('') +
        drops
          .slice(0, 6)
          .map(([a, , c]) => {
            const age = lap(c, t, 2);
            return `<ellipse cx="${fmt(a * width)}" cy="${fmt(height * 0.94)}" rx="${fmt(4 + age * 16)}" ry="${fmt(1 + age * 4)}" fill="none" stroke="#cfe8ff" stroke-width="1.5" opacity="${fmt(1 - age)}"/>`;
          })
          .join('');
      return { back, front: none };
    }
    case 'snow': {
      const flakes = many(48);
      const layer =
        (half: 0 | 1): Layer =>
        ({ width, height, t }) =>
          flakes
            .filter((_, i) => i % 2 === half)
            .map(([a, b, c, d]) => {
              const y = lap(b, t) * (height + 20) - 10;
              const x = a * width + Math.sin(TAU * (t * 2 + c)) * 8;
              return `<circle cx="${fmt(x)}" cy="${fmt(y)}" r="${fmt(1.6 + d * 3)}" fill="#fff" opacity="${fmt(0.6 + d * 0.4)}"/>`;
            })
            .join('');
      return { back: layer(0), front: layer(1) };
    }
    case 'applause': {
      const back: Layer = ({ width, height, t }) => {
        const cx = width / 2;
        const cy = height * 0.45;
        const flash = Math.abs(Math.sin(TAU * t * 2));
        let out = '';
        for (let k = 0; k < 12; k++) {
          const angle = (TAU * k) / 12 + 0.13;
          const r0 = height * (0.3 + 0.06 * flash);
          const r1 = r0 + height * 0.1 * flash;
          out += `<line x1="${fmt(cx + Math.cos(angle) * r0)}" y1="${fmt(cy + Math.sin(angle) * r0)}" x2="${fmt(cx + Math.cos(angle) * r1)}" y2="${fmt(cy + Math.sin(angle) * r1)}" stroke="#fff" stroke-width="5" stroke-linecap="round" opacity="${fmt(flash)}"/>`;
        }
        return out;
      };
      return { back, front: sparkleLayer(many(10)) };
    }
    case 'sparkles':
      return { back: sparkleLayer(many(16)), front: sparkleLayer(many(6)) };
    case 'bubbles': {
      const bubbles = many(22);
      const layer =
        (half: 0 | 1): Layer =>
        ({ width, height, t }) =>
          bubbles
            .filter((_, i) => i % 2 === half)
            .map(([a, b, c, d]) => {
              const y = height - (lap(b, t) * (height + 30) - 15);
              const x = a * width + Math.sin(TAU * (t * 2 + c)) * 6;
              const r = 3 + d * 8;
              return `<circle cx="${fmt(x)}" cy="${fmt(y)}" r="${fmt(r)}" fill="#ffffff" fill-opacity="0.15" stroke="#e0fbfc" stroke-width="1.5"/><circle cx="${fmt(x - r * 0.35)}" cy="${fmt(y - r * 0.35)}" r="${fmt(r * 0.22)}" fill="#fff" opacity="0.8"/>`;
            })
            .join('');
      return { back: layer(0), front: layer(1) };
    }
    case 'sunshine': {
      const back: Layer = ({ width, height, t }) => {
        const cx = width / 2;
        const cy = height * 0.45;
        const rays = 12;
        const length = Math.max(width, height);
        let out = '';
        for (let k = 0; k < rays; k++) {
          // One loop turns the wheel by exactly one ray, so it repeats seamlessly.
          const angle = (TAU * (k + t)) / rays;
          const spread = TAU / rays / 4;
          const x1 = cx + Math.cos(angle - spread) * length;
          const y1 = cy + Math.sin(angle - spread) * length;
          const x2 = cx + Math.cos(angle + spread) * length;
          const y2 = cy + Math.sin(angle + spread) * length;
          out += `<path d="M${fmt(cx)} ${fmt(cy)}L${fmt(x1)} ${fmt(y1)}L${fmt(x2)} ${fmt(y2)}Z" fill="#fff7c2" opacity="0.55"/>`;
        }
        return out;
      };
      return { back, front: none };
    }
    case 'sleepy': {
      const stars = many(20);
      const back: Layer = ({ width, height, t }) =>
        stars
          .map(
            ([a, b, c]) =>
              `<circle cx="${fmt(a * width)}" cy="${fmt(b * height * 0.7)}" r="1.3" fill="#fff" opacity="${fmt(0.3 + 0.6 * Math.abs(Math.sin(TAU * (t + c))))}"/>`,
          )
          .join('') +
        `<circle cx="${fmt(width * 0.14)}" cy="${fmt(height * 0.18)}" r="${fmt(height * 0.08)}" fill="#fff3bf"/><circle cx="${fmt(width * 0.16 + height * 0.035)}" cy="${fmt(height * 0.16)}" r="${fmt(height * 0.075)}" fill="#0d1b2a"/>`;
      const front: Layer = ({ width, height, t }) =>
        [0, 1 / 3, 2 / 3]
          .map((start) => {
            const age = lap(start, t);
            const size = 10 + age * 18;
            const x = width * 0.62 + age * width * 0.18 + Math.sin(TAU * age) * 6;
            const y = height * 0.4 - age * height * 0.32;
            return `<path d="M0 0H1L0 1H1" transform="translate(${fmt(x)} ${fmt(y)}) scale(${fmt(size)})" fill="none" stroke="#e0e7ff" stroke-width="${fmt(0.16)}" stroke-linejoin="round" stroke-linecap="round" opacity="${fmt(Math.sin(Math.PI * age))}"/>`;
          })
          .join('');
      return { back, front };
    }
    case 'disco': {
      const back: Layer = ({ width, height, t }) => {
        const beams = ['#ff006e', '#3a86ff', '#ffbe0b', '#8338ec', '#06d6a0'];
        return beams
          .map((color, k) => {
            const angle = Math.sin(TAU * (t + k / beams.length)) * 35 + (k - 2) * 14;
            return `<path d="M0 0L-28 ${fmt(height * 1.3)}L28 ${fmt(height * 1.3)}Z" fill="${color}" opacity="0.35" transform="translate(${fmt(width / 2)} -10) rotate(${fmt(angle)})"/>`;
          })
          .join('');
      };
      return { back, front: sparkleLayer(many(10)) };
    }
  }
}

function sparkleLayer(points: ReadonlyArray<readonly [number, number, number, number]>): Layer {
  return ({ width, height, t }) =>
    points
      .map(([a, b, c, d]) => {
        const scale = Math.max(0, Math.sin(TAU * lap(c, t)));
        if (scale < 0.05) return '';
        const size = (6 + d * 10) * scale;
        return `<path d="M0 -1L0.25 -0.25L1 0L0.25 0.25L0 1L-0.25 0.25L-1 0L-0.25 -0.25Z" fill="#fffbe6" transform="translate(${fmt(a * width)} ${fmt(b * height)}) scale(${fmt(size)})"/>`;
      })
      .join('');
}

/** Subject motion per scene: what the main emoji does while the weather goes on. */
function subjectTransform(kind: SceneKind, t: number, size: number): string {
  const wave = Math.sin(TAU * t);
  switch (kind) {
    case 'applause': {
      const clap = 1 + 0.1 * Math.abs(Math.sin(TAU * t * 2));
      return `scale(${fmt(clap)})`;
    }
    case 'bubbles':
      return `translate(${fmt(wave * size * 0.25)} ${fmt(Math.cos(TAU * t) * size * 0.04)}) scale(${fmt(Math.cos(TAU * t) >= 0 ? -1 : 1)} 1)`;
    case 'sleepy':
      return `translate(0 ${fmt(wave * size * 0.04)}) rotate(${fmt(wave * 4)})`;
    case 'hearts':
    case 'confetti':
    case 'disco': {
      const hop = Math.abs(Math.sin(Math.PI * t * 2));
      return `translate(0 ${fmt(-hop * size * 0.12)})`;
    }
    case 'fireworks':
    case 'sparkles': {
      const scale = 1 + 0.06 * wave;
      return `scale(${fmt(scale)})`;
    }
    case 'rain':
    case 'snow':
      return `rotate(${fmt(wave * 5)})`;
    case 'sunshine':
    case 'balloons':
    case 'leaves':
      return `translate(0 ${fmt(wave * size * 0.05)}) rotate(${fmt(wave * 3)})`;
  }
}

/** The frames of a scene, opaque, `width`×`height`. */
export function buildSceneFrames(
  spec: SceneSpec,
  width: number,
  height: number,
  frameCount = SCENE_FRAMES,
): string[] {
  const seed = phraseSeed(`${spec.kind}:${spec.subject}:${spec.caption ?? ''}`);
  const particleNames = spec.particles ?? [];
  const particleKeys = particleNames.map((_, i) => `p${i}`);
  const [top, bottom] = spec.sky ?? defaultSkies[spec.kind];
  const captionHeight = spec.caption ? height * 0.26 : 0;
  const subjectSize = Math.min(width, height - captionHeight) * (spec.partner ? 0.46 : 0.56);
  const defs = [
    `<linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${top}"/><stop offset="1" stop-color="${bottom}"/></linearGradient>`,
    emojiDef('subject', art(spec.subject), subjectSize),
    spec.partner ? emojiDef('partner', art(spec.partner), subjectSize) : '',
    ...particleNames.map((name, i) => emojiDef(particleKeys[i]!, art(name), EM)),
  ].join('');
  const layers = particlesLayer(spec.kind, particleKeys, seed);
  const caption = spec.caption
    ? captionMarkup(spec.caption, width, height, captionHeight)
    : undefined;
  const allDefs = defs + (caption?.defs ?? '');
  const centerY = (height - captionHeight) * 0.5 + (spec.caption ? height * 0.02 : 0);
  const frames: string[] = [];
  for (let frame = 0; frame < frameCount; frame++) {
    const t = frame / frameCount;
    const context = { width, height, t };
    const subject = spec.partner
      ? `<g transform="translate(${fmt(width * 0.3)} ${fmt(centerY)})"><use href="#subject" transform="${subjectTransform(spec.kind, t, subjectSize)}"/></g><g transform="translate(${fmt(width * 0.7)} ${fmt(centerY)})"><use href="#partner" transform="${subjectTransform(spec.kind, lap(0.5, t), subjectSize)}"/></g>`
      : `<g transform="translate(${fmt(width / 2)} ${fmt(centerY)})"><use href="#subject" transform="${subjectTransform(spec.kind, t, subjectSize)}"/></g>`;
    frames.push(
      `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><defs>${allDefs}</defs><rect width="${width}" height="${height}" fill="url(#sky)"/>${layers.back(context)}${subject}${layers.front(context)}${caption?.draw(t) ?? ''}</svg>`,
    );
  }
  return frames;
}

/** A caption across the bottom, in Luckiest Guy, gently bobbing. */
function captionMarkup(caption: string, width: number, height: number, areaHeight: number) {
  const layout = layoutPhrase(caption, {
    font: 'luckiest',
    aspect: (width * 0.9) / (areaHeight * 0.9),
  });
  const margin = 0.12 * EM;
  const scale = Math.min(
    (width * 0.9) / (layout.box.width + 2 * margin),
    (areaHeight * 0.9) / (layout.box.height + 2 * margin),
  );
  const tx = width / 2 - (layout.box.x + layout.box.width / 2) * scale;
  const ty = height - areaHeight / 2 - (layout.box.y + layout.box.height / 2) * scale;
  const draw = (t: number) => {
    const letters = layout.units
      .map((unit, order) =>
        drawUnit(unit, {
          dy: Math.sin(TAU * t - order * 0.45) * 0.05 * EM,
          fill: '#ffffff',
          stroke: '#1d1b3a',
          strokeWidth: 12,
        }),
      )
      .join('');
    return `<g transform="translate(${fmt(tx)} ${fmt(ty)}) scale(${fmt(scale)})">${letters}</g>`;
  };
  return { defs: emojiDefs(layout), draw };
}

export async function renderScene(
  spec: SceneSpec,
  options: { width: number; height: number; format: AnimationFormat },
): Promise<Buffer> {
  const frames = buildSceneFrames(spec, options.width, options.height);
  return encodeAnimation(frames, { ...options, delays: frames.map(() => SCENE_DELAY_MS) });
}
