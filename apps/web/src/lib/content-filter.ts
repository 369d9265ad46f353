import type { ContentFilter } from '@sticky/contracts';

/**
 * The content filter's values, kept in the URL as `?type=` by the grids and carried
 * along by the search box: both read it here (docs/web.md, "State").
 */
export const contentFilters = [
  'gifs',
  'stickers',
  'text',
] as const satisfies readonly ContentFilter[];

export function isContentFilter(value: string | null | undefined): value is ContentFilter {
  return (contentFilters as readonly string[]).includes(value ?? '');
}

/** `?type=` as a filter: `gifs` (the default) for a missing or unknown value. */
export function parseContentFilter(value: string | null): ContentFilter {
  return isContentFilter(value) ? value : 'gifs';
}
