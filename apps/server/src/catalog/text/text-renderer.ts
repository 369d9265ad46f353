import pLimit from 'p-limit';
import type { LimitFunction } from 'p-limit';
import type { TextStyleId } from './styles.ts';

/**
 * The app's drawing of animated text (docs/catalog.md, "Animated text"): how many drawings
 * run at once and which phrases are being drawn. Created per app and closed with it, after
 * the drawings under way have been stored. Every path that draws (/v1/text/animate and text
 * search; /v2 draws nothing) goes through animateText, so the same limits hold everywhere.
 */
export interface TextRenderer {
  /** Drawings under way at once: one per import worker plus one drawing. */
  readonly limit: LimitFunction;
  /** A phrase asked again while it is being drawn waits for that drawing. */
  readonly inFlight: Map<string, Promise<Map<TextStyleId, string>>>;
  close: () => Promise<void>;
}

export function createTextRenderer(options: { concurrency: number }): TextRenderer {
  const inFlight = new Map<string, Promise<Map<TextStyleId, string>>>();
  return {
    limit: pLimit(options.concurrency),
    inFlight,
    close: async () => {
      // Each drawing leaves inFlight when it settles; one started meanwhile is waited for too.
      while (inFlight.size > 0) await Promise.allSettled([...inFlight.values()]);
    },
  };
}
