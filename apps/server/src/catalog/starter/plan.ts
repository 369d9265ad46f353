import { notoSourceUrl } from '../text/emoji-art.ts';
import { fontCredit } from '../text/fonts.ts';
import { phraseSeed, renderTextAnimation } from '../text/render.ts';
import type { AnimationFormat } from '../text/render.ts';
import { textStyles } from '../text/styles.ts';
import { describeEmoji, titleCase } from './emoji-names.ts';
import { gifPlan } from './gif-plan.ts';
import { motionWords, renderSticker } from './motions.ts';
import type { StickerMotion } from './motions.ts';
import { renderScene } from './scenes.ts';
import { stickerGroups } from './sticker-plan.ts';
import { textPlan } from './text-plan.ts';

/**
 * Bump when the plan or the art changes: a start seeds a version once (starter_catalog_seeds);
 * items already there are recognised by their bytes and kept.
 */
export const STARTER_CATALOG_VERSION = 1;

/**
 * Canvas sizes. Small on purpose: every item also gets the whole rendition set on first start,
 * on two shared cores, within the start-up budget.
 */
export const starterSizes = {
  sticker: { width: 200, height: 200 },
  text: { width: 320, height: 180 },
  gif: { width: 256, height: 192 },
} as const;

/**
 * How much of the authored lists a start seeds: every item costs a full rendition set (about
 * half a second of CPU for a sticker or text, a second for a GIF scene), and the first start
 * must stay within its time budget.
 */
export const STICKERS_PER_GROUP = 4;
export const STYLES_PER_PHRASE = 2;

export type StarterItemType = 'sticker' | 'gif' | 'text';

export interface StarterItem {
  /** Stable name within the plan, e.g. `sticker:pizza`. */
  key: string;
  type: StarterItemType;
  title: string;
  tags: string[];
  altText: string;
  /** The words written in it (docs/catalog.md, "Captions"): from the plan, never read by OCR. */
  caption: string;
  /** `Parent/Sub` names from starterCategories. */
  categories: string[];
  sourceUrl: string;
  license: string;
  attribution: string;
  /** How popular it starts out, as a number of views (trending looks alive on day one). */
  popularity: number;
  render: (format: AnimationFormat) => Promise<Buffer>;
}

const NOTO_ATTRIBUTION = 'Noto Emoji by Google (Apache-2.0), animated by Sticky Studio';

/** Tags in lower case, each once, in the order given. */
function uniqueTags(tags: Iterable<string>): string[] {
  const seen = new Set<string>();
  for (const tag of tags) {
    const clean = tag.toLowerCase().replace(/\s+/g, ' ').trim();
    if (clean) seen.add(clean);
  }
  return [...seen];
}

/** 1–40 "views", skewed so a few items lead: the same for a key on every machine. */
function popularityOf(key: string, boost = 0): number {
  const r = (phraseSeed(key) % 10_000) / 10_000;
  return Math.round(1 + 39 * r * r + boost);
}

function stickerItems(): StarterItem[] {
  const byName = new Map<string, { motion: StickerMotion; categories: string[]; order: number }>();
  for (const group of stickerGroups) {
    group.emoji.slice(0, STICKERS_PER_GROUP).forEach((name, index) => {
      const existing = byName.get(name);
      if (existing) {
        existing.categories.push(group.category);
        return;
      }
      byName.set(name, {
        motion: group.motions[index % group.motions.length]!,
        categories: [group.category],
        order: index,
      });
    });
  }
  return [...byName].map(([name, { motion, categories, order }]) => {
    const info = describeEmoji(name);
    const words = motionWords[motion];
    const label = info.label.replace(/^flag: /, '');
    const key = `sticker:${name}`;
    return {
      key,
      type: 'sticker',
      title: `${words.adjective} ${titleCase(label)}`,
      tags: uniqueTags([
        label,
        ...info.tags,
        ...categories.flatMap((path) => path.split('/').slice(1)),
        words.tag,
        'emoji',
        info.emoji,
      ]),
      caption: '',
      altText: `Animated sticker: the ${label} emoji ${words.adjective.toLowerCase()} on a transparent background.`,
      categories,
      sourceUrl: notoSourceUrl(info.hexcode),
      license: 'Apache-2.0',
      attribution: NOTO_ATTRIBUTION,
      popularity: popularityOf(key, order < 2 ? 12 : 0),
      render: (format) =>
        renderSticker(info.art, motion, { size: starterSizes.sticker.width, format }),
    } satisfies StarterItem;
  });
}

function gifItems(): StarterItem[] {
  return gifPlan.map((entry, index) => {
    const subject = describeEmoji(entry.subject);
    const partner = entry.partner ? describeEmoji(entry.partner) : undefined;
    const key = `gif:${entry.title}`;
    const scene = entry.kind.replace('-', ' ');
    const who = partner ? `${subject.label} and ${partner.label}` : subject.label;
    return {
      key,
      type: 'gif',
      title: entry.title,
      tags: uniqueTags([
        ...entry.tags,
        subject.label,
        ...(partner ? [partner.label] : []),
        scene,
        ...entry.categories.flatMap((path) => path.split('/').slice(1)),
      ]),
      caption: entry.caption ?? '',
      altText: `Animated GIF: the ${who} emoji in a ${scene} scene${entry.caption ? ` with the words “${entry.caption}”` : ''}.`,
      categories: entry.categories,
      sourceUrl: notoSourceUrl(subject.hexcode),
      license: 'Apache-2.0',
      attribution: NOTO_ATTRIBUTION,
      popularity: popularityOf(key, index % 7 === 0 ? 15 : 0),
      render: (format) => renderScene(entry, { ...starterSizes.gif, format }),
    } satisfies StarterItem;
  });
}

function textItems(): StarterItem[] {
  return textPlan.flatMap((entry) =>
    entry.styles.slice(0, STYLES_PER_PHRASE).map((styleId, index) => {
      const style = textStyles[styleId];
      const font = fontCredit(style.font);
      const key = `text:${entry.phrase}:${styleId}`;
      const words = entry.phrase.replace(/[^\p{L}\p{N}' ]+/gu, ' ').trim();
      return {
        key,
        type: 'text',
        title: `${titleCase(words)} ${titleCase(style.label)}`,
        tags: uniqueTags([
          words,
          ...words.split(' '),
          ...entry.tags,
          style.label,
          'animated text',
          ...entry.categories.flatMap((path) => path.split('/').slice(1)),
        ]),
        caption: entry.phrase,
        altText: `Animated text “${entry.phrase}” in ${font.name}, ${style.label}, on a transparent background.`,
        categories: entry.categories,
        sourceUrl: font.sourceUrl,
        license: font.license,
        attribution: `${font.name} from Google Fonts (${font.license}), animated by Sticky Studio`,
        popularity: popularityOf(key, index === 0 ? 10 : 0),
        // Theme 1+ so a starter rendering never has the same bytes as a text/animate one.
        render: async (format) =>
          (
            await renderTextAnimation(entry.phrase, styleId, {
              ...starterSizes.text,
              format,
              theme: 1 + (phraseSeed(key) % 3),
            })
          ).bytes,
      } satisfies StarterItem;
    }),
  );
}

/** Every item of the starter catalog, described but not yet drawn. */
export function buildStarterPlan(): StarterItem[] {
  return [...stickerItems(), ...gifItems(), ...textItems()];
}
