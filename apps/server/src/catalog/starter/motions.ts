import type { EmojiArt } from '../text/emoji-art.ts';
import { encodeAnimation } from '../text/render.ts';
import type { AnimationFormat } from '../text/render.ts';
import { emojiDef, fmt } from '../text/svg.ts';

/** How a sticker moves. Each is a loop: the last frame leads back into the first. */
export const stickerMotions = [
  'bounce',
  'spin',
  'pulse',
  'heartbeat',
  'wiggle',
  'float',
  'shake',
  'jelly',
  'flip',
  'swing',
] as const;

export type StickerMotion = (typeof stickerMotions)[number];

/** The word a title or alt text uses for the motion: "a bouncing pizza". */
export const motionWords: Record<StickerMotion, { adjective: string; tag: string }> = {
  bounce: { adjective: 'Bouncing', tag: 'bounce' },
  spin: { adjective: 'Spinning', tag: 'spin' },
  pulse: { adjective: 'Pulsing', tag: 'pulse' },
  heartbeat: { adjective: 'Beating', tag: 'heartbeat' },
  wiggle: { adjective: 'Wiggling', tag: 'wiggle' },
  float: { adjective: 'Floating', tag: 'float' },
  shake: { adjective: 'Shaking', tag: 'shake' },
  jelly: { adjective: 'Jiggly', tag: 'jelly' },
  flip: { adjective: 'Flipping', tag: 'flip' },
  swing: { adjective: 'Swinging', tag: 'swing' },
};

const FRAMES = 12;
const TAU = Math.PI * 2;

interface Pose {
  dx: number;
  dy: number;
  rotate: number;
  scaleX: number;
  scaleY: number;
  /** Rotation pivot relative to the art's centre, in art sizes. */
  pivotY?: number;
  /** Size of the ground shadow, 0 for none. */
  shadow: number;
}

function poseOf(motion: StickerMotion, t: number, size: number): Pose {
  const rest: Pose = { dx: 0, dy: 0, rotate: 0, scaleX: 1, scaleY: 1, shadow: 0 };
  switch (motion) {
    case 'bounce': {
      const height = Math.abs(Math.sin(Math.PI * t));
      // Squash on landing: the first and last tenth of the loop are the ground contact.
      const squash = Math.max(0, 1 - height * 6) * 0.14;
      return {
        ...rest,
        dy: -height * 0.2 * size + squash * 0.25 * size,
        scaleX: 1 + squash,
        scaleY: 1 - squash,
        shadow: 1 - height * 0.55,
      };
    }
    case 'spin':
      return { ...rest, rotate: 360 * t };
    case 'pulse': {
      const scale = 1 + 0.1 * Math.sin(TAU * t);
      return { ...rest, scaleX: scale, scaleY: scale };
    }
    case 'heartbeat': {
      const beat = (at: number) => Math.exp(-(((t - at) * 14) ** 2));
      const scale = 1 + 0.16 * beat(0.18) + 0.11 * beat(0.42);
      return { ...rest, scaleX: scale, scaleY: scale };
    }
    case 'wiggle':
      return { ...rest, rotate: 14 * Math.sin(TAU * t), pivotY: 0.45 };
    case 'float':
      return {
        ...rest,
        dy: Math.sin(TAU * t) * 0.08 * size,
        rotate: 4 * Math.sin(TAU * t + 1),
        shadow: 0.8 - 0.2 * Math.sin(TAU * t),
      };
    case 'shake': {
      const x = Math.sin(TAU * t * 4) * 0.05 * size * (0.6 + 0.4 * Math.cos(TAU * t));
      return { ...rest, dx: x, rotate: Math.sin(TAU * t * 4) * 4 };
    }
    case 'jelly': {
      const wobble = Math.sin(TAU * t) * 0.12;
      return { ...rest, scaleX: 1 + wobble, scaleY: 1 - wobble, pivotY: 0.5 };
    }
    case 'flip': {
      const turn = Math.cos(TAU * t);
      return { ...rest, scaleX: Math.abs(turn) < 0.06 ? 0.06 * Math.sign(turn || 1) : turn };
    }
    case 'swing':
      return { ...rest, rotate: 16 * Math.sin(TAU * t), pivotY: -0.55 };
  }
}

/** The frames of an emoji art moving on a transparent square canvas. */
export function buildStickerFrames(art: EmojiArt, motion: StickerMotion, canvas: number): string[] {
  const size = canvas * 0.66;
  const frames: string[] = [];
  const defs = `<defs>${emojiDef('art', art, size)}</defs>`;
  const cx = canvas / 2;
  const cy = canvas / 2 + (motion === 'bounce' || motion === 'float' ? canvas * 0.05 : 0);
  for (let frame = 0; frame < FRAMES; frame++) {
    const pose = poseOf(motion, frame / FRAMES, size);
    const pivot = (pose.pivotY ?? 0) * size;
    let body = '';
    if (pose.shadow > 0) {
      const rx = size * 0.36 * pose.shadow;
      body += `<ellipse cx="${fmt(cx)}" cy="${fmt(cy + size * 0.52)}" rx="${fmt(rx)}" ry="${fmt(rx * 0.18)}" fill="#000" opacity="${fmt(0.18 * pose.shadow)}"/>`;
    }
    const transform = [
      `translate(${fmt(cx + pose.dx)} ${fmt(cy + pose.dy + pivot)})`,
      pose.rotate ? `rotate(${fmt(pose.rotate)})` : '',
      pose.scaleX !== 1 || pose.scaleY !== 1
        ? `scale(${fmt(pose.scaleX)} ${fmt(pose.scaleY)})`
        : '',
      pivot ? `translate(0 ${fmt(-pivot)})` : '',
    ]
      .filter(Boolean)
      .join(' ');
    body += `<use href="#art" transform="${transform}"/>`;
    frames.push(
      `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${canvas}" height="${canvas}" viewBox="0 0 ${canvas} ${canvas}">${defs}${body}</svg>`,
    );
  }
  return frames;
}

export async function renderSticker(
  art: EmojiArt,
  motion: StickerMotion,
  options: { size: number; format: AnimationFormat },
): Promise<Buffer> {
  const frames = buildStickerFrames(art, motion, options.size);
  return encodeAnimation(frames, {
    width: options.size,
    height: options.size,
    format: options.format,
    delays: frames.map(() => 80),
  });
}
