import { sql } from 'drizzle-orm';
import { listableItemsSql } from './items.ts';
import type { CatalogDeps, Page } from './items.ts';

/**
 * GIPHY's emoji are our emoji stickers: stickers tagged `emoji` and with the emoji itself
 * (docs/api.md, "Emoji"), most popular first.
 */
export async function listEmojiItemIds(
  deps: CatalogDeps,
  options: { limit: number; offset: number },
): Promise<Page<string>> {
  const filter = listableItemsSql('i', { types: ['sticker'] });
  const result = await deps.database.db.execute<{ id: string; total: string }>(sql`
    SELECT i.id, count(*) OVER () AS total FROM items i
    WHERE ${filter} AND i.tags @> ARRAY['emoji']
    ORDER BY i.trend_score DESC, i.id
    LIMIT ${options.limit} OFFSET ${options.offset}`);
  const rows = result.rows.map((row) => row.id);
  const totalCount = result.rows[0]
    ? Number(result.rows[0].total)
    : options.offset > 0
      ? await countEmoji(deps)
      : 0;
  return { rows, totalCount };
}

async function countEmoji(deps: CatalogDeps): Promise<number> {
  const filter = listableItemsSql('i', { types: ['sticker'] });
  const result = await deps.database.db.execute<{ total: string }>(sql`
    SELECT count(*) AS total FROM items i WHERE ${filter} AND i.tags @> ARRAY['emoji']`);
  return Number(result.rows[0]?.total ?? 0);
}

const pictographic = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u;
const skinTones = ['\u{1F3FB}', '\u{1F3FC}', '\u{1F3FD}', '\u{1F3FE}', '\u{1F3FF}'];
const skinTonePattern = /[\u{1F3FB}-\u{1F3FF}]/gu;

/** The same emoji in every skin tone: the base first, then each tone after its first symbol. */
function listSkinToneForms(emoji: string): string[] {
  const base = emoji.replace(skinTonePattern, '');
  const [first = '', ...rest] = [...base];
  return [base, ...skinTones.map((tone) => `${first}${tone}${rest.join('')}`)];
}

/**
 * The variations of an emoji sticker (GIPHY's `/v2/emoji/{id}/variations`): the stickers of
 * the same emoji in its skin tones, the default first. Undefined when the id is not an emoji.
 */
export async function listEmojiVariationIds(
  deps: CatalogDeps,
  itemId: string,
): Promise<string[] | undefined> {
  const found = await deps.database.db.execute<{ tags: string[] }>(sql`
    SELECT tags FROM items
    WHERE id = ${itemId} AND type = 'sticker' AND tags @> ARRAY['emoji'] AND hidden_at IS NULL
      AND visibility <> 'private'`);
  const tags = found.rows[0]?.tags;
  const emoji = tags?.find((tag) => pictographic.test(tag));
  if (!emoji) return undefined;
  const forms = listSkinToneForms(emoji);
  const filter = listableItemsSql('i', { types: ['sticker'] });
  const result = await deps.database.db.execute<{ id: string; tags: string[] }>(sql`
    SELECT i.id, i.tags FROM items i
    WHERE (${filter} OR i.id = ${itemId}) AND i.tags @> ARRAY['emoji']
      AND i.tags && ${sql`ARRAY[${sql.join(
        forms.map((form) => sql`${form}`),
        sql`, `,
      )}]::text[]`}
    ORDER BY i.trend_score DESC, i.id
    LIMIT 50`);
  const rank = (rowTags: string[]) => {
    const index = forms.findIndex((form) => rowTags.includes(form));
    return index === -1 ? forms.length : index;
  };
  return result.rows
    .map((row, order) => ({ id: row.id, order, rank: rank(row.tags) }))
    .sort((a, b) => a.rank - b.rank || a.order - b.order)
    .map((row) => row.id);
}
