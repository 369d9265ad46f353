-- The words written inside an item's image (docs/catalog.md, "Captions"): read by a later-tier
-- job (catalog/captions/), given by the starter plan, or edited by whoever may edit the item.
-- caption_read_at is null until the reader (or a person, or the plan) has set the caption: what
-- `sticky captions` and the start-up backlog look for.
ALTER TABLE "items" ADD COLUMN "caption" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "caption_read_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "items" ADD CONSTRAINT "items_caption_length_check" CHECK (char_length("caption") <= 1000);--> statement-breakpoint
-- Only animated text and on-demand renderings need no reading: their words are their title.
UPDATE "items" SET "caption_read_at" = now() WHERE "type" = 'text' OR "is_dynamic";--> statement-breakpoint
CREATE INDEX "items_caption_unread_idx" ON "items" ("id") WHERE "caption_read_at" IS NULL;--> statement-breakpoint
-- The caption is searched below title (A) and tags (B), above alt text: it takes C and alt text
-- moves to D. search.ts ranks with weights {D 0.2, C 0.3, B 0.4, A 1.0}, so alt text keeps the
-- 0.2 it had at C and every item without a caption ranks as before. Category is not in the
-- vector (a category is a list, and a subcategory's name is a tag). SET EXPRESSION (PostgreSQL
-- 17+) keeps the indexes and triggers on the columns; it rewrites the table once.
ALTER TABLE "items" ALTER COLUMN "search_vector" SET EXPRESSION AS (setweight(to_tsvector('sticky_simple', coalesce(title, '')), 'A') || setweight(to_tsvector('sticky_simple', sticky_tags_text(tags)), 'B') || setweight(to_tsvector('sticky_simple', coalesce(caption, '')), 'C') || setweight(to_tsvector('sticky_simple', coalesce(alt_text, '')), 'D'));--> statement-breakpoint
ALTER TABLE "items" ALTER COLUMN "search_vector_stem" SET EXPRESSION AS (setweight(to_tsvector('sticky_english', coalesce(title, '')), 'A') || setweight(to_tsvector('sticky_english', sticky_tags_text(tags)), 'B') || setweight(to_tsvector('sticky_english', coalesce(caption, '')), 'C') || setweight(to_tsvector('sticky_english', coalesce(alt_text, '')), 'D'));--> statement-breakpoint
-- A caption's words join search_terms (typo correction, completion) like the other columns'.
DROP TRIGGER "items_search_terms_update" ON "items";--> statement-breakpoint
CREATE TRIGGER items_search_terms_update AFTER UPDATE OF title, tags, alt_text, caption ON items
  FOR EACH ROW EXECUTE FUNCTION sticky_items_terms_on_update();
--> statement-breakpoint
-- Related reads every word of search_vector_stem: an item whose caption changed is read fresh.
DROP TRIGGER "items_related_lists_update_row" ON "items";--> statement-breakpoint
CREATE TRIGGER items_related_lists_update_row AFTER UPDATE OF type, title, tags, alt_text, caption, rating, is_indexable, is_dynamic ON items
  FOR EACH ROW WHEN (
    OLD.type IS DISTINCT FROM NEW.type OR OLD.title IS DISTINCT FROM NEW.title
    OR OLD.tags IS DISTINCT FROM NEW.tags OR OLD.alt_text IS DISTINCT FROM NEW.alt_text
    OR OLD.caption IS DISTINCT FROM NEW.caption
    OR OLD.rating IS DISTINCT FROM NEW.rating OR OLD.is_indexable IS DISTINCT FROM NEW.is_indexable
    OR OLD.is_dynamic IS DISTINCT FROM NEW.is_dynamic
  ) EXECUTE FUNCTION sticky_related_lists_on_row_update();
--> statement-breakpoint
DROP TRIGGER "items_related_lists_update" ON "items";--> statement-breakpoint
CREATE TRIGGER items_related_lists_update AFTER UPDATE OF type, title, tags, alt_text, caption, rating, is_indexable, is_dynamic ON items
  FOR EACH STATEMENT EXECUTE FUNCTION sticky_related_lists_on_any();
--> statement-breakpoint
-- Item documents are a cache of each item's JSON, which now carries `caption` and an alt text
-- that reads it (docs/catalog.md, "Captions"): the ones made before go and are made again.
TRUNCATE "item_documents";
