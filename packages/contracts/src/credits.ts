import type { Credit } from './credit-schema.ts';
import { credits } from './credits-list.ts';

export { creditSchema } from './credit-schema.ts';
export type { Credit } from './credit-schema.ts';

/** Every asset set Sticky ships (credits-list.ts, which the web app imports without zod). */
export { credits };

/** The credit of an asset set by its name; throws for a name that is not listed. */
export function findCredit(name: string): Credit {
  const credit = credits.find((entry) => entry.name === name);
  if (!credit) throw new Error(`no credit named ${name}`);
  return credit;
}
