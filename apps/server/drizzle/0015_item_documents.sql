CREATE TABLE "item_documents" (
	"item_id" text PRIMARY KEY NOT NULL,
	"format" text NOT NULL,
	"item_version" integer NOT NULL,
	"creator_version" integer NOT NULL,
	"json" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "creators" ADD COLUMN "document_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "document_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "item_documents" ADD CONSTRAINT "item_documents_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Item documents (catalog/query/item-documents.ts, docs/catalog.md "Item documents"): an item's
-- document_version moves in the transaction that changes anything its JSON shows, so a document
-- made from a snapshot at version v is sent only while the item is still at v. Compared as
-- jsonb, so a column added later counts as shown unless listed here.
CREATE OR REPLACE FUNCTION sticky_document_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- TG_ARGV: the columns the JSON does not show, document_version among them.
  IF (to_jsonb(NEW) - TG_ARGV) IS DISTINCT FROM (to_jsonb(OLD) - TG_ARGV) THEN
    NEW.document_version := OLD.document_version + 1;
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER items_document_version BEFORE UPDATE ON items FOR EACH ROW
  EXECUTE FUNCTION sticky_document_version('document_version', 'trend_score', 'hidden_at', 'popularity_tier', 'search_vector', 'search_vector_stem');
--> statement-breakpoint
CREATE TRIGGER creators_document_version BEFORE UPDATE ON creators FOR EACH ROW
  EXECUTE FUNCTION sticky_document_version('document_version');
--> statement-breakpoint
-- A rendition added (a video made after import), changed or removed moves its item's version.
CREATE OR REPLACE FUNCTION sticky_renditions_document_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE items SET document_version = document_version + 1
  WHERE id IN (SELECT DISTINCT item_id FROM changed_rows);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER renditions_document_version_insert AFTER INSERT ON renditions
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sticky_renditions_document_version();
--> statement-breakpoint
CREATE TRIGGER renditions_document_version_update AFTER UPDATE ON renditions
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sticky_renditions_document_version();
--> statement-breakpoint
CREATE TRIGGER renditions_document_version_delete AFTER DELETE ON renditions
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sticky_renditions_document_version();
--> statement-breakpoint
-- 0012's function with document_version among the columns that do not move catalog_version:
-- what moves it (a rendition, a shown column) moves catalog_version by itself, and the first view
-- of an item (trending_at) moves only popularity_version, as before.
CREATE OR REPLACE FUNCTION sticky_items_versions_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  popularity constant text[] := ARRAY['trend_score', 'trending_at', 'popularity_tier', 'search_vector', 'search_vector_stem', 'document_version'];
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
