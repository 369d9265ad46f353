import { z } from 'zod';
import { limitParam, offsetParam, tooLongIssue } from './giphy-params.ts';

/** The longest phrase `text/animate` draws, in characters as a person counts them. */
export const maxAnimatePhraseLength = 50;

/** Backstop in code points: 50 characters stacked with combining marks must stay small. */
const maxAnimatePhraseCodePoints = 200;

/**
 * A phrase as we draw it: Unicode NFC, control characters and runs of spaces made one space,
 * ends trimmed. Two requests that differ only in spacing get the same renderings.
 */
export function normalizeAnimatePhrase(raw: string): string {
  return raw
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Zl}\p{Zp}]/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
}

/** Characters as a person counts them: 👍🏽 and é are one each. */
export function countGraphemes(text: string): number {
  let count = 0;
  for (const _ of new Intl.Segmenter('und', { granularity: 'grapheme' }).segment(text)) count += 1;
  return count;
}

const phraseParam = z
  .unknown()
  .optional()
  .transform((value, ctx) => {
    if (Array.isArray(value)) {
      ctx.addIssue({ code: 'custom', message: 'm must be given once' });
      return z.NEVER;
    }
    const text =
      value === undefined || value === null || String(value) === 'undefined'
        ? ''
        : normalizeAnimatePhrase(String(value));
    // Only invisible characters (joiners, zero-width spaces) would draw an empty sticker.
    if (!/[^\p{White_Space}\p{Cf}]/u.test(text)) {
      ctx.addIssue({ code: 'custom', message: 'm is required: the text to animate' });
      return z.NEVER;
    }
    if (
      countGraphemes(text) > maxAnimatePhraseLength ||
      [...text].length > maxAnimatePhraseCodePoints
    ) {
      ctx.addIssue({
        code: 'custom',
        message: `m must be at most ${maxAnimatePhraseLength} characters`,
        params: { status: tooLongIssue },
      });
      return z.NEVER;
    }
    return text;
  })
  .meta({
    type: 'string',
    description: `The phrase to animate: at most ${maxAnimatePhraseLength} characters (longer: 414).`,
  });

/** `text/animate?m=…`: the phrase, and GIPHY's paging over the renderings (one per style). */
export const animateParamsSchema = z.object({
  m: phraseParam,
  limit: limitParam(),
  offset: offsetParam,
});
export type AnimateParams = z.output<typeof animateParamsSchema>;
