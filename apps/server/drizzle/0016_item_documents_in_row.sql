-- Item documents stay in their row (docs/catalog.md, "Item documents"). Compressed, one is about
-- 2.5 KB: past PostgreSQL's 2 KB threshold, so by default each went out of line (TOAST), split
-- in two chunks behind an index of its own, each read on its own. In the row, at a million
-- items, a page's 25 documents read in 1.35 ms instead of 2.0, and they take 400 MB instead of
-- 545. The documents already made were stored the old way; they are a cache, so they go and are
-- made again: the most popular by the maintenance within a minute of start, the rest on cold pages.
ALTER TABLE "item_documents" ALTER COLUMN "json" SET STORAGE MAIN;
--> statement-breakpoint
TRUNCATE "item_documents";
--> statement-breakpoint
-- Which columns of items do not move catalog_version is now the trigger's arguments, as for
-- sticky_document_version (migration 0015): a column added later counts unless its CREATE
-- TRIGGER lists it, and listing one no longer restates this function.
CREATE OR REPLACE FUNCTION sticky_items_versions_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM new_items n FULL JOIN old_items o ON o.id = n.id
    WHERE n.id IS NULL OR o.id IS NULL OR (to_jsonb(n) - TG_ARGV) IS DISTINCT FROM (to_jsonb(o) - TG_ARGV)
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
--> statement-breakpoint
DROP TRIGGER "items_versions_update" ON "items";
--> statement-breakpoint
CREATE TRIGGER "items_versions_update" AFTER UPDATE ON "items"
  REFERENCING OLD TABLE AS old_items NEW TABLE AS new_items
  FOR EACH STATEMENT EXECUTE FUNCTION sticky_items_versions_on_update(
    'trend_score', 'trending_at', 'popularity_tier', 'search_vector', 'search_vector_stem', 'document_version'
  );
