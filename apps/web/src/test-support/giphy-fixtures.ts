import fs from 'node:fs';
import path from 'node:path';
import type { GifsResult } from '@giphy/js-fetch-api';
import { normalizeItem } from '@/features/content';
import type { ContentCategory, ContentItem } from '@/features/content';

type ContentListResult = GifsResult;

/**
 * Real GIPHY responses recorded into the repository (fixtures/giphy/SOURCES.md). They are part
 * of the repository: a missing file fails the test that reads it (docs/testing.md, "Fixtures in
 * the repository").
 */
// jsdom gives modules an http `import.meta.url`; the directory is still known.
const fixturesDir = `${path.resolve(import.meta.dirname, '../../../../fixtures/giphy')}/`;

export const fixtureFiles = {
  trending: 'v1-gifs-trending_2021_with-user-and-analytics.ryanw-mobile.json',
  search: 'v1-gifs-search-or-trending_5-gifs.giphy-js.json',
  single: 'v1-gifs-by-id_single-gif.giphy-js.json',
  legacy: 'v1-gifs-search_2017_legacy-shape.redi-school.json',
  stickers: 'v2-emoji-id-variations_stickers.giphy-js.json',
} as const;

function readFixture(file: string): {
  data: unknown;
  meta: { response_id: string };
  pagination?: ContentListResult['pagination'];
} {
  return JSON.parse(fs.readFileSync(`${fixturesDir}${file}`, 'utf8'));
}

/** A list fixture as the client returns it, optionally with other pagination. */
export function loadList(
  file: string,
  pagination?: Partial<ContentListResult['pagination']>,
): ContentListResult {
  const raw = readFixture(file);
  const data = (raw.data as Record<string, unknown>[]).map((item) =>
    normalizeItem(item, raw.meta.response_id),
  );
  return {
    data,
    meta: raw.meta,
    pagination: {
      total_count: data.length,
      count: data.length,
      offset: 0,
      ...raw.pagination,
      ...pagination,
    },
  } as ContentListResult;
}

export function loadItem(file: string = fixtureFiles.single): ContentItem {
  const raw = readFixture(file);
  return normalizeItem(raw.data as Record<string, unknown>, raw.meta.response_id);
}

/** A list result made of the given items (pagination as a server would send it). */
export function listOf(
  items: ContentItem[],
  pagination: Partial<ContentListResult['pagination']> = {},
): ContentListResult {
  return {
    data: items,
    meta: { status: 200, msg: 'OK', response_id: 'test-response' },
    pagination: { total_count: items.length, count: items.length, offset: 0, ...pagination },
  } as ContentListResult;
}

/** GIPHY publishes no category fixture; this is the shape its API documents for categories. */
export const categoryFixtures: ContentCategory[] = [
  {
    name: 'Reactions',
    name_encoded: 'reactions',
    subcategories: [
      { name: 'happy', name_encoded: 'happy' },
      { name: 'thumbs up', name_encoded: 'thumbs-up' },
    ],
  },
  { name: 'news & politics', name_encoded: 'news-politics', subcategories: [] },
];
