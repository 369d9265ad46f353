CREATE TABLE "related_keys" (
	"type" text NOT NULL,
	"key" text NOT NULL,
	"item_ids" text[] NOT NULL,
	"item_count" integer NOT NULL,
	CONSTRAINT "related_keys_key_type_pk" PRIMARY KEY("key","type")
);
--> statement-breakpoint
CREATE TABLE "related_lists_changes" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"item_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "related_lists_state" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"changes" bigint DEFAULT 0 NOT NULL,
	"built_changes" bigint,
	"list_length" integer,
	"built_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "related_lists_state" ADD CONSTRAINT "related_lists_state_single_row" CHECK ("id");
--> statement-breakpoint
INSERT INTO "related_lists_state" DEFAULT VALUES;
--> statement-breakpoint
-- What the related lists are built from changed (an item added, removed, retitled, retagged,
-- re-rated, hidden): count it, and announce it on commit so a server queues a rebuild
-- (docs/catalog.md, "Related"). Popularity and renditions do not count: the lists follow what
-- items are and say; catalog_version alone moves for the rest.
CREATE OR REPLACE FUNCTION sticky_related_lists_changed() RETURNS void LANGUAGE sql AS $$
  WITH counted AS (UPDATE related_lists_state SET changes = changes + 1 RETURNING changes)
  SELECT pg_notify('sticky_related_lists', changes::text) FROM counted
$$;
--> statement-breakpoint
-- New items, and (below) items whose text or listing changed, are noted until a rebuild holds
-- them: the first related page reads them beside the lists, so an edit shows at once.
CREATE OR REPLACE FUNCTION sticky_related_lists_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM changed_rows) THEN
    INSERT INTO related_lists_changes (item_id) SELECT id FROM changed_rows;
    PERFORM sticky_related_lists_changed();
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sticky_related_lists_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM changed_rows) THEN PERFORM sticky_related_lists_changed(); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sticky_related_lists_on_row_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO related_lists_changes (item_id) VALUES (NEW.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sticky_related_lists_on_any() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sticky_related_lists_changed();
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER items_related_lists_insert AFTER INSERT ON items
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sticky_related_lists_on_insert();
--> statement-breakpoint
CREATE TRIGGER items_related_lists_delete AFTER DELETE ON items
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sticky_related_lists_on_delete();
--> statement-breakpoint
CREATE TRIGGER items_related_lists_update_row AFTER UPDATE OF type, title, tags, alt_text, rating, is_indexable, is_dynamic ON items
  FOR EACH ROW WHEN (
    OLD.type IS DISTINCT FROM NEW.type OR OLD.title IS DISTINCT FROM NEW.title
    OR OLD.tags IS DISTINCT FROM NEW.tags OR OLD.alt_text IS DISTINCT FROM NEW.alt_text
    OR OLD.rating IS DISTINCT FROM NEW.rating OR OLD.is_indexable IS DISTINCT FROM NEW.is_indexable
    OR OLD.is_dynamic IS DISTINCT FROM NEW.is_dynamic
  ) EXECUTE FUNCTION sticky_related_lists_on_row_update();
--> statement-breakpoint
-- A column list cannot go with transition tables: any UPDATE naming these columns counts.
CREATE TRIGGER items_related_lists_update AFTER UPDATE OF type, title, tags, alt_text, rating, is_indexable, is_dynamic ON items
  FOR EACH STATEMENT EXECUTE FUNCTION sticky_related_lists_on_any();
--> statement-breakpoint
CREATE TRIGGER items_related_lists_truncate AFTER TRUNCATE ON items
  FOR EACH STATEMENT EXECUTE FUNCTION sticky_related_lists_on_any();
