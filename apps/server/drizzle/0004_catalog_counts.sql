CREATE TABLE "catalog_counts" (
	"type" text NOT NULL,
	"rating" text NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "catalog_counts_type_rating_pk" PRIMARY KEY("type","rating")
);
--> statement-breakpoint
-- Kept by statement-level triggers on items: each insert, update or delete statement adds what
-- it changed per (type, rating), in one write per group, in key order (no deadlock between
-- two statements). An update that changes none of type, rating, is_indexable or is_dynamic
-- (a trend score, a title) writes nothing.
CREATE OR REPLACE FUNCTION sticky_catalog_counts_apply(changes jsonb) RETURNS void LANGUAGE sql AS $$
  INSERT INTO catalog_counts AS c (type, rating, count)
  SELECT x.type, x.rating, sum(x.delta)
  FROM jsonb_to_recordset(changes) AS x(type text, rating text, delta bigint)
  GROUP BY x.type, x.rating
  HAVING sum(x.delta) <> 0
  ORDER BY x.type, x.rating
  ON CONFLICT (type, rating) DO UPDATE SET count = c.count + EXCLUDED.count
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sticky_catalog_counts_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sticky_catalog_counts_apply(coalesce((
    SELECT jsonb_agg(jsonb_build_object('type', type, 'rating', rating, 'delta', n))
    FROM (SELECT type, rating, count(*) AS n FROM new_items
          WHERE is_indexable AND NOT is_dynamic GROUP BY type, rating) g), '[]'));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sticky_catalog_counts_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sticky_catalog_counts_apply(coalesce((
    SELECT jsonb_agg(jsonb_build_object('type', type, 'rating', rating, 'delta', -n))
    FROM (SELECT type, rating, count(*) AS n FROM old_items
          WHERE is_indexable AND NOT is_dynamic GROUP BY type, rating) g), '[]'));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sticky_catalog_counts_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sticky_catalog_counts_apply(coalesce((
    SELECT jsonb_agg(jsonb_build_object('type', type, 'rating', rating, 'delta', n))
    FROM (
      SELECT type, rating, count(*) AS n FROM new_items
      WHERE is_indexable AND NOT is_dynamic GROUP BY type, rating
      UNION ALL
      SELECT type, rating, -count(*) FROM old_items
      WHERE is_indexable AND NOT is_dynamic GROUP BY type, rating) g), '[]'));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sticky_catalog_counts_on_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM catalog_counts;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER items_catalog_counts_insert AFTER INSERT ON items
  REFERENCING NEW TABLE AS new_items FOR EACH STATEMENT EXECUTE FUNCTION sticky_catalog_counts_on_insert();
--> statement-breakpoint
CREATE TRIGGER items_catalog_counts_delete AFTER DELETE ON items
  REFERENCING OLD TABLE AS old_items FOR EACH STATEMENT EXECUTE FUNCTION sticky_catalog_counts_on_delete();
--> statement-breakpoint
CREATE TRIGGER items_catalog_counts_update AFTER UPDATE ON items
  REFERENCING OLD TABLE AS old_items NEW TABLE AS new_items
  FOR EACH STATEMENT EXECUTE FUNCTION sticky_catalog_counts_on_update();
--> statement-breakpoint
CREATE TRIGGER items_catalog_counts_truncate AFTER TRUNCATE ON items
  FOR EACH STATEMENT EXECUTE FUNCTION sticky_catalog_counts_on_truncate();
--> statement-breakpoint
INSERT INTO catalog_counts (type, rating, count)
SELECT type, rating, count(*) FROM items WHERE is_indexable AND NOT is_dynamic GROUP BY type, rating;
