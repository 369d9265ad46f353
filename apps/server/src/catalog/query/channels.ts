import type { Rating } from '@sticky/contracts';
import { sql } from 'drizzle-orm';
import { listableItemsSql } from './items.ts';
import type { CatalogDeps, Page } from './items.ts';
import type { CreatorRow } from './serialize.ts';

export interface ChannelRow {
  creator: CreatorRow;
  /** Their most popular item within the rating, if any. */
  featuredItemId: string | null;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/**
 * Creators whose username, name or description contains the words (GIPHY's
 * `channels/search`), verified first, then by name. The creators are few next to the items.
 */
export async function searchChannels(
  deps: CatalogDeps,
  options: { q: string; limit: number; offset: number; rating?: Rating },
): Promise<Page<ChannelRow>> {
  const pattern = `%${escapeLike(options.q.replace(/^@/, '').toLowerCase())}%`;
  const featured = listableItemsSql('f', { rating: options.rating });
  const result = await deps.database.db.execute<{
    id: number;
    username: string;
    display_name: string;
    avatar_url: string;
    description: string;
    profile_url: string;
    website_url: string;
    is_verified: boolean;
    featured_item_id: string | null;
    total: string;
  }>(sql`
    SELECT c.*, count(*) OVER () AS total,
      (SELECT f.id FROM items f WHERE f.creator_id = c.id AND ${featured}
        ORDER BY f.trend_score DESC, f.id LIMIT 1) AS featured_item_id
    FROM creators c
    WHERE lower(c.username) LIKE ${pattern} OR lower(c.display_name) LIKE ${pattern}
      OR lower(c.description) LIKE ${pattern}
    ORDER BY c.is_verified DESC, lower(c.display_name), c.id
    LIMIT ${options.limit} OFFSET ${options.offset}`);
  return {
    rows: result.rows.map((row) => ({
      creator: {
        id: Number(row.id),
        username: row.username,
        displayName: row.display_name,
        avatarUrl: row.avatar_url,
        description: row.description,
        profileUrl: row.profile_url,
        websiteUrl: row.website_url,
        isVerified: row.is_verified,
      },
      featuredItemId: row.featured_item_id,
    })),
    totalCount: Number(result.rows[0]?.total ?? 0),
  };
}
