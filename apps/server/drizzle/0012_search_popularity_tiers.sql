DROP INDEX "items_gif_search_idx";--> statement-breakpoint
DROP INDEX "items_gif_search_stem_idx";--> statement-breakpoint
DROP INDEX "items_sticker_search_idx";--> statement-breakpoint
DROP INDEX "items_sticker_search_stem_idx";--> statement-breakpoint
DROP INDEX "items_text_search_idx";--> statement-breakpoint
DROP INDEX "items_text_search_stem_idx";--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "popularity_tier" smallint GENERATED ALWAYS AS (CASE WHEN trend_score > 0 THEN least(floor(trend_score * 2) * 4 + (hashtext(id) & 3), 32000)::smallint ELSE (-1 - (hashtext(id) & 63))::smallint END) STORED;--> statement-breakpoint
-- A popularity tier's keys at five granularities (1, 4, 16, 64 and 256 tiers), indexed beside
-- the search vectors and tags: a slice of tiers is named by a handful of keys whatever its width
-- (sticky_tier_range_keys), and a GIN scan costs per key it is given (docs/catalog.md,
-- "Popularity slices"). Tiers start at -64, so keys are of tier + 64.
CREATE OR REPLACE FUNCTION sticky_tier_keys(tier smallint) RETURNS int[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ARRAY[tier + 64, 1000000 + ((tier + 64) >> 2), 2000000 + ((tier + 64) >> 4),
    3000000 + ((tier + 64) >> 6), 4000000 + ((tier + 64) >> 8)]
$$;
--> statement-breakpoint
-- The fewest keys of sticky_tier_keys that together name the tiers [low, high): blocks of the
-- largest granularity that fits, left to right.
CREATE OR REPLACE FUNCTION sticky_tier_range_keys(low int, high int) RETURNS int[] LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  keys int[] := '{}';
  at_key int := greatest(low, -64) + 64;
  stop_key int := least(high, 32001) + 64;
  lvl int;
BEGIN
  WHILE at_key < stop_key LOOP
    lvl := 4;
    WHILE lvl > 0 AND (at_key % (1 << (2 * lvl)) <> 0 OR at_key + (1 << (2 * lvl)) > stop_key) LOOP
      lvl := lvl - 1;
    END LOOP;
    keys := keys || (lvl * 1000000 + (at_key >> (2 * lvl)));
    at_key := at_key + (1 << (2 * lvl));
  END LOOP;
  RETURN keys;
END $$;
--> statement-breakpoint
CREATE INDEX "items_gif_search_tier_idx" ON "items" USING gin ("search_vector",sticky_tier_keys(popularity_tier)) WHERE type = 'gif' AND is_indexable AND NOT is_dynamic;--> statement-breakpoint
CREATE INDEX "items_gif_search_stem_tier_idx" ON "items" USING gin ("search_vector_stem",sticky_tier_keys(popularity_tier)) WHERE type = 'gif' AND is_indexable AND NOT is_dynamic;--> statement-breakpoint
CREATE INDEX "items_gif_tags_tier_idx" ON "items" USING gin ("tags",sticky_tier_keys(popularity_tier)) WHERE type = 'gif' AND is_indexable AND NOT is_dynamic;--> statement-breakpoint
CREATE INDEX "items_sticker_search_tier_idx" ON "items" USING gin ("search_vector",sticky_tier_keys(popularity_tier)) WHERE type = 'sticker' AND is_indexable AND NOT is_dynamic;--> statement-breakpoint
CREATE INDEX "items_sticker_search_stem_tier_idx" ON "items" USING gin ("search_vector_stem",sticky_tier_keys(popularity_tier)) WHERE type = 'sticker' AND is_indexable AND NOT is_dynamic;--> statement-breakpoint
CREATE INDEX "items_sticker_tags_tier_idx" ON "items" USING gin ("tags",sticky_tier_keys(popularity_tier)) WHERE type = 'sticker' AND is_indexable AND NOT is_dynamic;--> statement-breakpoint
CREATE INDEX "items_text_search_tier_idx" ON "items" USING gin ("search_vector",sticky_tier_keys(popularity_tier)) WHERE type = 'text' AND is_indexable AND NOT is_dynamic;--> statement-breakpoint
CREATE INDEX "items_text_search_stem_tier_idx" ON "items" USING gin ("search_vector_stem",sticky_tier_keys(popularity_tier)) WHERE type = 'text' AND is_indexable AND NOT is_dynamic;--> statement-breakpoint
CREATE INDEX "items_text_tags_tier_idx" ON "items" USING gin ("tags",sticky_tier_keys(popularity_tier)) WHERE type = 'text' AND is_indexable AND NOT is_dynamic;--> statement-breakpoint
-- popularity_tier follows trend_score: like it, it moves popularity_version, not catalog_version
-- (0009's function, with the new column among popularity's).
CREATE OR REPLACE FUNCTION sticky_items_versions_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  popularity constant text[] := ARRAY['trend_score', 'trending_at', 'popularity_tier', 'search_vector', 'search_vector_stem'];
BEGIN
  IF EXISTS (
    SELECT 1 FROM new_items n FULL JOIN old_items o ON o.id = n.id
    WHERE n.id IS NULL OR o.id IS NULL OR (to_jsonb(n) - popularity) IS DISTINCT FROM (to_jsonb(o) - popularity)
  ) THEN
    PERFORM sticky_catalog_version_bump();
  END IF;
  IF EXISTS (
    SELECT 1 FROM new_items n JOIN old_items o ON o.id = n.id
    WHERE n.trend_score IS DISTINCT FROM o.trend_score OR n.trending_at IS DISTINCT FROM o.trending_at
  ) THEN
    PERFORM sticky_popularity_version_bump();
  END IF;
  RETURN NULL;
END $$;
