import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { maxFavoritesPerUser } from '@sticky/contracts';
import type { Database } from '../db/client.ts';
import { favorites, users } from '../db/schema.ts';
import { AppError } from '../lib/app-error.ts';

/** The account's favorite ids, newest first (ties broken by id so the order is stable). */
export async function listFavoriteIds(db: Database, userId: string): Promise<string[]> {
  const rows = await db
    .select({ itemId: favorites.itemId })
    .from(favorites)
    .where(eq(favorites.userId, userId))
    .orderBy(desc(favorites.createdAt), desc(favorites.itemId));
  return rows.map((row) => row.itemId);
}

/**
 * Adds one favorite; adding one that is already there changes nothing. Returns whether a
 * row was created, so callers count a favorite once. The cap is checked in the same
 * statement as the insert.
 */
export async function addFavorite(db: Database, userId: string, itemId: string): Promise<boolean> {
  const result = await db.execute(sql`
    INSERT INTO favorites (user_id, item_id)
    SELECT ${userId}, ${itemId}
    WHERE (SELECT count(*) FROM favorites WHERE user_id = ${userId}) < ${maxFavoritesPerUser}
    ON CONFLICT (user_id, item_id) DO NOTHING
  `);
  if ((result.rowCount ?? 0) > 0) return true;
  const [existing] = await db
    .select({ itemId: favorites.itemId })
    .from(favorites)
    .where(and(eq(favorites.userId, userId), eq(favorites.itemId, itemId)))
    .limit(1);
  if (existing) return false;
  throw new AppError(
    'conflict',
    `You can keep up to ${maxFavoritesPerUser} favourites: remove some to add more.`,
  );
}

/** Removes one favorite; removing one that is not there is not an error. */
export async function removeFavorite(db: Database, userId: string, itemId: string): Promise<void> {
  await db.delete(favorites).where(and(eq(favorites.userId, userId), eq(favorites.itemId, itemId)));
}

/**
 * Merges the ids a browser kept in localStorage into the account, once per account: the
 * first call wins, later calls (other devices, other tabs) change nothing. The browser's
 * order is oldest first; it is kept by spacing the creation times a millisecond apart, older
 * than anything already in the account. Ids beyond the cap are dropped.
 */
export async function mergeFavorites(
  db: Database,
  userId: string,
  ids: readonly string[],
): Promise<{ merged: boolean; ids: string[] }> {
  const unique = [...new Set(ids)];
  const merged = await db.transaction(async (tx) => {
    const claimed = await tx
      .update(users)
      .set({ favoritesMergedAt: new Date() })
      .where(and(eq(users.id, userId), isNull(users.favoritesMergedAt)))
      .returning({ id: users.id });
    if (claimed.length === 0) return false;
    if (unique.length === 0) return true;
    await tx.execute(sql`
      WITH incoming AS (
        SELECT item_id, ordinality
        FROM unnest(${sql.param(unique)}::text[]) WITH ORDINALITY AS t(item_id, ordinality)
        WHERE NOT EXISTS (
          SELECT 1 FROM favorites f WHERE f.user_id = ${userId} AND f.item_id = t.item_id
        )
      ),
      oldest AS (
        SELECT coalesce(min(created_at), now()) AS at FROM favorites WHERE user_id = ${userId}
      ),
      room AS (
        SELECT greatest(${maxFavoritesPerUser} - count(*), 0) AS n
        FROM favorites WHERE user_id = ${userId}
      )
      INSERT INTO favorites (user_id, item_id, created_at)
      SELECT ${userId}, item_id,
        (SELECT at FROM oldest) - make_interval(secs => (${unique.length} - ordinality + 1) / 1000.0)
      FROM incoming
      ORDER BY ordinality DESC
      LIMIT (SELECT n FROM room)
      ON CONFLICT (user_id, item_id) DO NOTHING
    `);
    return true;
  });
  return { merged, ids: await listFavoriteIds(db, userId) };
}
