import { z } from 'zod';

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
