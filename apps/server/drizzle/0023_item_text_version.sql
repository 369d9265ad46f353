CREATE TABLE "item_text_version" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "item_text_version" ADD CONSTRAINT "item_text_version_single_row" CHECK ("id");
--> statement-breakpoint
INSERT INTO "item_text_version" DEFAULT VALUES;
--> statement-breakpoint
-- What one item says changed (its title, tags, alt text…), not which lists hold it: a kept answer
-- that does not show it stays (docs/catalog.md, "Caches and versions"). The version counts such
-- changes one by one, in commit order (the row is locked until commit), so a listener that sees
-- a gap knows it missed one. `ids` empty: only rankings changed (the related lists were rebuilt).
CREATE OR REPLACE FUNCTION sticky_item_text_bump(ids text[]) RETURNS void LANGUAGE sql AS $$
  WITH bumped AS (UPDATE item_text_version SET version = version + 1 RETURNING version)
  SELECT pg_notify('sticky_item_text', version::text || ':' || array_to_string(ids, ',')) FROM bumped
$$;
--> statement-breakpoint
-- 0016's function, with one exception: a statement that changed one item and only its text
-- columns moves item_text_version, naming it, instead of catalog_version. Anything else (more
-- rows, rating, type, visibility, hidden, a new column) still moves catalog_version: what may add
-- an item to a list or take it out of one empties every kept answer, as before.
CREATE OR REPLACE FUNCTION sticky_items_versions_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  text_columns constant text[] := ARRAY['title', 'slug', 'tags', 'alt_text', 'source_url', 'license', 'attribution'];
  changed_ids text[];
  is_text_only boolean;
BEGIN
  SELECT array_agg(coalesce(n.id, o.id)),
    coalesce(bool_and(n.id IS NOT NULL AND o.id IS NOT NULL
      AND (to_jsonb(n) - TG_ARGV - text_columns) IS NOT DISTINCT FROM (to_jsonb(o) - TG_ARGV - text_columns)), false)
  INTO changed_ids, is_text_only
  FROM new_items n FULL JOIN old_items o ON o.id = n.id
  WHERE n.id IS NULL OR o.id IS NULL OR (to_jsonb(n) - TG_ARGV) IS DISTINCT FROM (to_jsonb(o) - TG_ARGV);
  IF changed_ids IS NOT NULL THEN
    IF is_text_only AND cardinality(changed_ids) = 1 THEN
      PERFORM sticky_item_text_bump(changed_ids);
    ELSE
      PERFORM sticky_catalog_version_bump();
    END IF;
  END IF;
  IF EXISTS (
    SELECT 1 FROM new_items n JOIN old_items o ON o.id = n.id
    WHERE n.trend_score IS DISTINCT FROM o.trend_score OR n.trending_at IS DISTINCT FROM o.trending_at
  ) THEN
    PERFORM sticky_popularity_version_bump();
  END IF;
  RETURN NULL;
END $$;
