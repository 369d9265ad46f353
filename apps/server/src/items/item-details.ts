import type { ItemDetails } from '@sticky/contracts';
import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';

/**
 * SQL for an item's first category as people name it (`Name` or `Parent/Sub`), over `items`
 * aliased as `alias`: the one category uploads and edits set (docs/uploads.md).
 */
export function categoryNameSql(alias: string): SQL {
  return sql.raw(`(
    SELECT coalesce(parent.name || '/', '') || category.name
    FROM item_categories link
    JOIN categories category ON category.id = link.category_id
    LEFT JOIN categories parent ON parent.id = category.parent_id
    WHERE link.item_id = ${alias}.id
    ORDER BY category.parent_id IS NULL, category.id
    LIMIT 1
  )`);
}

/**
 * SQL for the path of an item's grid rendition (fixed_width WebP, made first), as a preview, or
 * of its first frame (`fixed_width_still`).
 */
export function previewPathSql(alias: string, name: 'fixed_width' | 'fixed_width_still'): SQL {
  return sql.raw(`(
    SELECT rendition.path FROM renditions rendition
    WHERE rendition.item_id = ${alias}.id AND rendition.name = '${name}'
    ORDER BY rendition.format = 'webp' DESC, rendition.format = 'gif' DESC
    LIMIT 1
  )`);
}

export type ItemDetailsRow = {
  title: string;
  tags: string[];
  type: 'gif' | 'sticker' | 'text';
  category: string | null;
  rating: string;
  source_url: string;
  caption: string;
};

export function toItemDetails(row: ItemDetailsRow): ItemDetails {
  return {
    title: row.title,
    tags: row.tags,
    type: row.type,
    category: row.category,
    rating: row.rating as ItemDetails['rating'],
    sourceUrl: row.source_url,
    caption: row.caption,
  };
}
