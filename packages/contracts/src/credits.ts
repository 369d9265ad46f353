import { z } from 'zod';

/** One asset set the product ships or shows (fonts, emoji art, images), and its licence. */
export const creditSchema = z.object({
  name: z.string(),
  author: z.string(),
  license: z.string(),
  licenseUrl: z.string(),
  sourceUrl: z.string(),
  usedFor: z.string(),
});
export type Credit = z.infer<typeof creditSchema>;

/** Filled in by the starter-catalog work; rendered by the credits page and the README. */
export const credits: Credit[] = [];
