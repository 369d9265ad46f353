import { z } from 'zod';
import { credits } from './credits-list.ts';

/** One asset set the product ships or shows (fonts, emoji art, images), and its license. */
export const creditSchema = z.object({
  name: z.string(),
  author: z.string(),
  license: z.string(),
  licenseUrl: z.string(),
  sourceUrl: z.string(),
  usedFor: z.string(),
});
export type Credit = z.infer<typeof creditSchema>;

/** Every asset set Sticky ships (credits-list.ts, which the web app imports without zod). */
export { credits };

/** The credit of an asset set by its name; throws for a name that is not listed. */
export function findCredit(name: string): Credit {
  const credit = credits.find((entry) => entry.name === name);
  if (!credit) throw new Error(`no credit named ${name}`);
  return credit;
}
