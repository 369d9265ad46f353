import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { AppError } from '../../lib/app-error.ts';
import { ensureFreeSpace } from '../../storage/free-space.ts';
import { importMedia } from '../import/import-media.ts';
import type { ImportDeps } from '../import/import-media.ts';
import { loadItemsByIds } from '../query/items.ts';
import type { CatalogItemRow } from '../query/items.ts';
import { digestRequester } from '../requester.ts';
import type { Requester } from '../requester.ts';
import { studioCreator } from '../starter/studio.ts';
import { fontCredit } from './fonts.ts';
import { RENDERER_VERSION, renderTextAnimation } from './render.ts';
import { textStyleIds, textStyles } from './styles.ts';
import type { TextStyleId } from './styles.ts';
import type { TextRenderer } from './text-renderer.ts';

/** What drawing animated text needs: the import's deps and the app's renderer. */
export interface AnimateDeps extends ImportDeps {
  services: NonNullable<ImportDeps['services']> & {
    textRenderer: TextRenderer;
    requesterSecret: string;
  };
}

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

/** Drawings waiting beyond this are refused (503), instead of queueing without end. */
const MAX_WAITING = 6 * textStyleIds.length;

function tagsFor(phrase: string, style: TextStyleId): string[] {
  const words = phrase
    .toLowerCase()
    .split(/[^\p{L}\p{N}']+/u)
    .filter(Boolean);
  return [phrase.toLowerCase(), ...words, textStyles[style].label, 'animated text'];
}

/** Draws one style and stores it; returns the id it is stored under. */
async function renderStyle(deps: AnimateDeps, phrase: string, style: TextStyleId): Promise<string> {
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
  deps: AnimateDeps,
  phrase: string,
  styles: TextStyleId[],
): Promise<Map<TextStyleId, string>> {
  const { limit } = deps.services.textRenderer;
  return Promise.all(
    styles.map((style) =>
      limit(async () => [style, await renderStyle(deps, phrase, style)] as const),
    ),
  ).then((pairs) => new Map(pairs));
}

/**
 * Counts one new phrase against the person's daily quota (TEXT_RENDERS_PER_DAY), or refuses
 * it (429) when the day's are used up. Stored per digest of the person and UTC day, so every
 * server on the database counts the same; old days are pruned (catalog/maintenance.ts).
 */
export async function chargeRenderQuota(deps: AnimateDeps, requester: Requester): Promise<void> {
  const quota = deps.config.textRendering.perPersonPerDay;
  const digest = digestRequester(deps.services.requesterSecret, requester, 'text-render');
  const result = await deps.database.db.execute<{ renders: number }>(sql`
    INSERT INTO text_render_counts AS c (requester, day, renders)
    VALUES (${digest}, (now() AT TIME ZONE 'utc')::date, 1)
    ON CONFLICT (requester, day) DO UPDATE SET renders = c.renders + 1
    WHERE c.renders < ${quota}
    RETURNING renders`);
  if (result.rows.length === 0) {
    throw new AppError(
      'rate_limited',
      `You have made ${quota} new animated texts today, the most one person may; phrases made before still work, and tomorrow you can make more.`,
    );
  }
}

/**
 * One animated-text item per style for a phrase (normalized and checked by the contract), in
 * style order. Renderings are made on the first request and stored like any item (dynamic,
 * never listed or searched); later requests read them by id and cost nothing. A new phrase is
 * drawn only with disk space above MIN_FREE_DISK_MB, within the person's daily quota and
 * while the app's drawing queue has room (docs/catalog.md, "Animated text").
 */
export async function animateText(
  deps: AnimateDeps,
  phrase: string,
  requester: Requester,
): Promise<CatalogItemRow[]> {
  const ids = new Map(textStyleIds.map((style) => [style, animatedTextItemId(phrase, style)]));
  const found = await loadItemsByIds(deps, [...ids.values()]);
  if (found.length === ids.size) return found;
  if (requester.mayRender === false) {
    throw new AppError(
      'forbidden',
      'New animated text is drawn only for requests made from this site or with an app key.',
    );
  }
  const { inFlight, limit } = deps.services.textRenderer;
  let job = inFlight.get(phrase);
  if (!job) {
    const have = new Set(found.map((row) => row.id));
    const missing = textStyleIds.filter((style) => !have.has(ids.get(style)!));
    if (limit.pendingCount + missing.length > MAX_WAITING) {
      throw new AppError(
        'unavailable',
        'Too many animations are being made right now; try again in a moment.',
      );
    }
    await ensureFreeSpace(
      deps.config,
      deps.config.mediaDir,
      'no new animated text is made right now; phrases made before still work.',
    );
    await chargeRenderQuota(deps, requester);
    // Someone else may have started this phrase while we checked.
    job = inFlight.get(phrase);
    if (!job) {
      job = renderStyles(deps, phrase, missing).finally(() => inFlight.delete(phrase));
      inFlight.set(phrase, job);
    }
  }
  for (const [style, id] of await job) ids.set(style, id);
  return loadItemsByIds(deps, [...ids.values()]);
}
