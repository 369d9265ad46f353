import { createHash } from 'node:crypto';
import pLimit from 'p-limit';
import { AppError } from '../../lib/app-error.ts';
import { importMedia } from '../import/import-media.ts';
import type { ImportDeps } from '../import/import-media.ts';
import { loadItemsByIds } from '../query/items.ts';
import type { CatalogItemRow } from '../query/items.ts';
import { studioCreator } from '../starter/studio.ts';
import { fontCredit } from './fonts.ts';
import { RENDERER_VERSION, renderTextAnimation } from './render.ts';
import { textStyleIds, textStyles } from './styles.ts';
import type { TextStyleId } from './styles.ts';

/** Canvas of an on-demand rendering: a banner, like GIPHY's text stickers. */
export const animateCanvas = { width: 320, height: 180 } as const;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * The item id of a phrase in a style, derived from what was asked (renderer version, style,
 * phrase): a repeat finds the stored item by id without drawing anything.
 */
export function animatedTextItemId(phrase: string, style: TextStyleId): string {
  const digest = createHash('sha256')
    .update(`text/animate|${RENDERER_VERSION}|${style}|${phrase}`)
    .digest();
  let id = 'txt';
  for (let index = 0; index < 20; index += 1) id += BASE62[digest[index]! % 62];
  return id;
}

/**
 * Renderings under way at once, across all requests: one per import worker plus one drawing,
 * so a burst of new phrases keeps both cores busy without starving everything else.
 */
const renderLimit = pLimit(3);
/** Renderings waiting beyond this are refused (503), instead of queueing without end. */
const MAX_WAITING = 6 * textStyleIds.length;
/** A phrase asked again while it is being drawn waits for that drawing. */
const inFlight = new Map<string, Promise<Map<TextStyleId, string>>>();

function tagsFor(phrase: string, style: TextStyleId): string[] {
  const words = phrase
    .toLowerCase()
    .split(/[^\p{L}\p{N}']+/u)
    .filter(Boolean);
  return [phrase.toLowerCase(), ...words, textStyles[style].label, 'animated text'];
}

/** Draws one style and stores it; returns the id it is stored under. */
async function renderStyle(deps: ImportDeps, phrase: string, style: TextStyleId): Promise<string> {
  const { bytes } = await renderTextAnimation(phrase, style, { ...animateCanvas, format: 'gif' });
  const font = fontCredit(textStyles[style].font);
  const outcome = await importMedia(
    deps,
    {
      bytes,
      fileName: `${style}.gif`,
      metadata: {
        title: phrase,
        tags: tagsFor(phrase, style),
        type: 'text',
        rating: 'g',
        altText: `Animated text “${phrase}” in ${font.name}, ${textStyles[style].label}, on a transparent background.`,
        sourceUrl: font.sourceUrl,
        license: font.license,
        attribution: `${font.name} (${font.license}), animated by Sticky`,
        creator: studioCreator(),
        isDynamic: true,
        isIndexable: false,
      },
    },
    { itemId: animatedTextItemId(phrase, style) },
  );
  if (outcome.status === 'rejected') {
    throw new AppError('internal', `Could not store the ${style} rendering: ${outcome.reason}`);
  }
  // A duplicate (the same bytes already stored) is served under the id it has.
  return outcome.itemId;
}

function renderStyles(
  deps: ImportDeps,
  phrase: string,
  styles: TextStyleId[],
): Promise<Map<TextStyleId, string>> {
  if (renderLimit.pendingCount + styles.length > MAX_WAITING) {
    throw new AppError(
      'unavailable',
      'Too many animations are being made right now; try again in a moment.',
    );
  }
  return Promise.all(
    styles.map((style) =>
      renderLimit(async () => [style, await renderStyle(deps, phrase, style)] as const),
    ),
  ).then((pairs) => new Map(pairs));
}

/**
 * One animated-text item per style for a phrase (normalised and checked by the contract), in
 * style order. Renderings are made on the first request and stored like any item (dynamic,
 * never listed or searched); later requests read them by id.
 */
export async function animateText(deps: ImportDeps, phrase: string): Promise<CatalogItemRow[]> {
  const ids = new Map(textStyleIds.map((style) => [style, animatedTextItemId(phrase, style)]));
  const found = await loadItemsByIds(deps, [...ids.values()]);
  if (found.length === ids.size) return found;
  const have = new Set(found.map((row) => row.id));
  let job = inFlight.get(phrase);
  if (!job) {
    const missing = textStyleIds.filter((style) => !have.has(ids.get(style)!));
    job = renderStyles(deps, phrase, missing).finally(() => inFlight.delete(phrase));
    inFlight.set(phrase, job);
  }
  for (const [style, id] of await job) ids.set(style, id);
  return loadItemsByIds(deps, [...ids.values()]);
}
