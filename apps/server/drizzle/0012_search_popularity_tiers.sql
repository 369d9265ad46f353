DROP INDEX "items_gif_search_idx";--> statement-breakpoint
DROP INDEX "items_gif_search_stem_idx";--> statement-breakpoint
DROP INDEX "items_sticker_search_idx";--> statement-breakpoint
DROP INDEX "items_sticker_search_stem_idx";--> statement-breakpoint
DROP INDEX "items_text_search_idx";--> statement-breakpoint
DROP INDEX "items_text_search_stem_idx";--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "popularity_tier" smallint GENERATED ALWAYS AS (CASE WHEN trend_score > 0 THEN least(floor(trend_score * 2) * 4 + (hashtext(id) & 3), 32000)::smallint ELSE (-1 - (hashtext(id) & 63))::smallint END) STORED;--> statement-breakpoint
CREATE INDEX "items_gif_search_tier_idx" ON "items" USING gin ("search_vector",(ARRAY[popularity_tier])) WHERE type = 'gif' AND is_indexable AND NOT is_dynamic;--> statement-breakpoint
CREATE INDEX "items_gif_search_stem_tier_idx" ON "items" USING gin ("search_vector_stem",(ARRAY[popularity_tier])) WHERE type = 'gif' AND is_indexable AND NOT is_dynamic;--> statement-breakpoint
CREATE INDEX "items_gif_tags_tier_idx" ON "items" USING gin ("tags",(ARRAY[popularity_tier])) WHERE type = 'gif' AND is_indexable AND NOT is_dynamic;--> statement-breakpoint
CREATE INDEX "items_sticker_search_tier_idx" ON "items" USING gin ("search_vector",(ARRAY[popularity_tier])) WHERE type = 'sticker' AND is_indexable AND NOT is_dynamic;--> statement-breakpoint
CREATE INDEX "items_sticker_search_stem_tier_idx" ON "items" USING gin ("search_vector_stem",(ARRAY[popularity_tier])) WHERE type = 'sticker' AND is_indexable AND NOT is_dynamic;--> statement-breakpoint
CREATE INDEX "items_sticker_tags_tier_idx" ON "items" USING gin ("tags",(ARRAY[popularity_tier])) WHERE type = 'sticker' AND is_indexable AND NOT is_dynamic;--> statement-breakpoint
CREATE INDEX "items_text_search_tier_idx" ON "items" USING gin ("search_vector",(ARRAY[popularity_tier])) WHERE type = 'text' AND is_indexable AND NOT is_dynamic;--> statement-breakpoint
CREATE INDEX "items_text_search_stem_tier_idx" ON "items" USING gin ("search_vector_stem",(ARRAY[popularity_tier])) WHERE type = 'text' AND is_indexable AND NOT is_dynamic;--> statement-breakpoint
CREATE INDEX "items_text_tags_tier_idx" ON "items" USING gin ("tags",(ARRAY[popularity_tier])) WHERE type = 'text' AND is_indexable AND NOT is_dynamic;--> statement-breakpoint
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
