CREATE TABLE "catalog_tags" (
	"tag" text NOT NULL,
	"rating" text NOT NULL,
	"uses" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "catalog_tags_tag_rating_pk" PRIMARY KEY("tag","rating")
);
--> statement-breakpoint
CREATE TABLE "popularity_version" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "search_query_searchers" (
	"query" text NOT NULL,
	"day" date NOT NULL,
	"searcher" text NOT NULL,
	CONSTRAINT "search_query_searchers_query_day_searcher_pk" PRIMARY KEY("query","day","searcher")
);
--> statement-breakpoint
CREATE TABLE "text_render_counts" (
	"requester" text NOT NULL,
	"day" date NOT NULL,
	"renders" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "text_render_counts_requester_day_pk" PRIMARY KEY("requester","day")
);
--> statement-breakpoint
CREATE INDEX "catalog_tags_prefix_idx" ON "catalog_tags" USING btree ("tag" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "favorites_item_idx" ON "favorites" USING btree ("item_id");--> statement-breakpoint
CREATE INDEX "items_dynamic_created_idx" ON "items" USING btree ("created_at") WHERE is_dynamic;--> statement-breakpoint
-- Popularity has its own version (docs/catalog.md, "Caches and versions"): counting a view or a
-- favorite moves trend_score, which must not empty every answer kept under catalog_version.
INSERT INTO "popularity_version" DEFAULT VALUES;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sticky_popularity_version_bump() RETURNS void LANGUAGE sql AS $$
  WITH bumped AS (UPDATE popularity_version SET version = version + 1 RETURNING version)
  SELECT pg_notify('sticky_popularity_version', version::text) FROM bumped
$$;
--> statement-breakpoint
-- An update moves catalog_version when anything but popularity changed (the search vectors
-- follow title, tags and alt text), and popularity_version when trend_score or trending_at did.
-- Rows compared as jsonb, so a column added later counts as a catalog change without editing
-- this function.
CREATE OR REPLACE FUNCTION sticky_items_versions_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  popularity constant text[] := ARRAY['trend_score', 'trending_at', 'search_vector', 'search_vector_stem'];
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
--> statement-breakpoint
DROP TRIGGER IF EXISTS items_catalog_version_update ON items;
--> statement-breakpoint
CREATE TRIGGER items_versions_update AFTER UPDATE ON items
  REFERENCING OLD TABLE AS old_items NEW TABLE AS new_items
  FOR EACH STATEMENT EXECUTE FUNCTION sticky_items_versions_on_update();
--> statement-breakpoint
-- Tag autocomplete reads catalog_tags (listable items per tag and rating), kept exact by
-- statement-level triggers like catalog_counts (0004): one write per (tag, rating), in key
-- order; an update that changes no tag, rating or listability writes nothing.
CREATE OR REPLACE FUNCTION sticky_catalog_tags_apply(changes jsonb) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO catalog_tags AS c (tag, rating, uses)
  SELECT x.tag, x.rating, sum(x.delta)
  FROM jsonb_to_recordset(changes) AS x(tag text, rating text, delta bigint)
  GROUP BY x.tag, x.rating
  HAVING sum(x.delta) <> 0
  ORDER BY x.tag, x.rating
  ON CONFLICT (tag, rating) DO UPDATE SET uses = c.uses + EXCLUDED.uses;
  DELETE FROM catalog_tags c
  USING jsonb_to_recordset(changes) AS x(tag text, rating text, delta bigint)
  WHERE c.tag = x.tag AND c.rating = x.rating AND c.uses <= 0;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sticky_catalog_tags_of(rows_json jsonb, sign int) RETURNS jsonb LANGUAGE sql AS $$
  SELECT coalesce(jsonb_agg(jsonb_build_object('tag', tag, 'rating', rating, 'delta', sign * n)), '[]')
  FROM (
    SELECT t.tag, r.rating, count(*) AS n
    FROM jsonb_to_recordset(rows_json) AS r(tags text[], rating text, is_indexable boolean, is_dynamic boolean),
      LATERAL (SELECT DISTINCT unnest(r.tags) AS tag) t
    WHERE r.is_indexable AND NOT r.is_dynamic AND length(t.tag) BETWEEN 1 AND 200
    GROUP BY t.tag, r.rating) g
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sticky_catalog_tags_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sticky_catalog_tags_apply(sticky_catalog_tags_of(
    (SELECT coalesce(jsonb_agg(jsonb_build_object('tags', tags, 'rating', rating, 'is_indexable', is_indexable, 'is_dynamic', is_dynamic)), '[]') FROM new_items), 1));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sticky_catalog_tags_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sticky_catalog_tags_apply(sticky_catalog_tags_of(
    (SELECT coalesce(jsonb_agg(jsonb_build_object('tags', tags, 'rating', rating, 'is_indexable', is_indexable, 'is_dynamic', is_dynamic)), '[]') FROM old_items), -1));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sticky_catalog_tags_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Only rows whose tags, rating or listability changed (a trend score moves nothing here).
  PERFORM sticky_catalog_tags_apply(
    sticky_catalog_tags_of((
      SELECT coalesce(jsonb_agg(jsonb_build_object('tags', n.tags, 'rating', n.rating, 'is_indexable', n.is_indexable, 'is_dynamic', n.is_dynamic)), '[]')
      FROM new_items n LEFT JOIN old_items o ON o.id = n.id
      WHERE o.id IS NULL OR (n.tags, n.rating, n.is_indexable, n.is_dynamic) IS DISTINCT FROM (o.tags, o.rating, o.is_indexable, o.is_dynamic)), 1)
    || sticky_catalog_tags_of((
      SELECT coalesce(jsonb_agg(jsonb_build_object('tags', o.tags, 'rating', o.rating, 'is_indexable', o.is_indexable, 'is_dynamic', o.is_dynamic)), '[]')
      FROM old_items o LEFT JOIN new_items n ON n.id = o.id
      WHERE n.id IS NULL OR (n.tags, n.rating, n.is_indexable, n.is_dynamic) IS DISTINCT FROM (o.tags, o.rating, o.is_indexable, o.is_dynamic)), -1));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sticky_catalog_tags_on_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM catalog_tags;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER items_catalog_tags_insert AFTER INSERT ON items
  REFERENCING NEW TABLE AS new_items FOR EACH STATEMENT EXECUTE FUNCTION sticky_catalog_tags_on_insert();
--> statement-breakpoint
CREATE TRIGGER items_catalog_tags_delete AFTER DELETE ON items
  REFERENCING OLD TABLE AS old_items FOR EACH STATEMENT EXECUTE FUNCTION sticky_catalog_tags_on_delete();
--> statement-breakpoint
CREATE TRIGGER items_catalog_tags_update AFTER UPDATE ON items
  REFERENCING OLD TABLE AS old_items NEW TABLE AS new_items
  FOR EACH STATEMENT EXECUTE FUNCTION sticky_catalog_tags_on_update();
--> statement-breakpoint
CREATE TRIGGER items_catalog_tags_truncate AFTER TRUNCATE ON items
  FOR EACH STATEMENT EXECUTE FUNCTION sticky_catalog_tags_on_truncate();
--> statement-breakpoint
INSERT INTO catalog_tags (tag, rating, uses)
SELECT t.tag, i.rating, count(*) FROM items i, LATERAL (SELECT DISTINCT unnest(i.tags) AS tag) t
WHERE i.is_indexable AND NOT i.is_dynamic AND length(t.tag) BETWEEN 1 AND 200
GROUP BY t.tag, i.rating;
