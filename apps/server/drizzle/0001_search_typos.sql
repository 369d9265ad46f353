-- Search configuration: exact words (simple) and English stems, both accent-insensitive.
CREATE EXTENSION IF NOT EXISTS unaccent;
--> statement-breakpoint
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_ts_config WHERE cfgname = 'sticky_simple') THEN
    CREATE TEXT SEARCH CONFIGURATION sticky_simple (COPY = simple);
    ALTER TEXT SEARCH CONFIGURATION sticky_simple ALTER MAPPING FOR hword, hword_part, word WITH unaccent, simple;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_ts_config WHERE cfgname = 'sticky_english') THEN
    CREATE TEXT SEARCH CONFIGURATION sticky_english (COPY = english);
    ALTER TEXT SEARCH CONFIGURATION sticky_english ALTER MAPPING FOR hword, hword_part, word WITH unaccent, english_stem;
  END IF;
END $$;
--> statement-breakpoint
CREATE TABLE "search_term_variants" (
	"variant" text NOT NULL,
	"term" text NOT NULL,
	CONSTRAINT "search_term_variants_variant_term_pk" PRIMARY KEY("variant","term")
);
--> statement-breakpoint
CREATE TABLE "search_terms" (
	"term" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
ALTER TABLE "items" drop column "search_vector";--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('sticky_simple', coalesce(title, '')), 'A') || setweight(to_tsvector('sticky_simple', sticky_tags_text(tags)), 'B') || setweight(to_tsvector('sticky_simple', coalesce(alt_text, '')), 'C')) STORED;--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "search_vector_stem" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('sticky_english', coalesce(title, '')), 'A') || setweight(to_tsvector('sticky_english', sticky_tags_text(tags)), 'B') || setweight(to_tsvector('sticky_english', coalesce(alt_text, '')), 'C')) STORED;--> statement-breakpoint
ALTER TABLE "search_term_variants" ADD CONSTRAINT "search_term_variants_term_search_terms_term_fk" FOREIGN KEY ("term") REFERENCES "public"."search_terms"("term") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "search_terms_trgm_idx" ON "search_terms" USING gin ("term" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "items_search_stem_idx" ON "items" USING gin ("search_vector_stem");
--> statement-breakpoint
CREATE INDEX "items_search_idx" ON "items" USING gin ("search_vector");
--> statement-breakpoint
-- The typo-correction lexicon: every word of the search text, and each word of 4+ letters
-- also under its one-letter deletions (see search_term_variants in schema.ts).
CREATE OR REPLACE FUNCTION sticky_add_search_terms(words text[]) RETURNS void LANGUAGE sql AS $$
  WITH added AS (
    INSERT INTO search_terms (term)
    SELECT DISTINCT w FROM unnest(words) w WHERE length(w) BETWEEN 1 AND 40
    ON CONFLICT DO NOTHING
    RETURNING term
  )
  INSERT INTO search_term_variants (variant, term)
  SELECT term, term FROM added WHERE length(term) >= 4
  UNION
  SELECT overlay(term PLACING '' FROM k FOR 1), term
  FROM added, generate_series(1, length(term)) k
  WHERE length(term) >= 4
  ON CONFLICT DO NOTHING
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sticky_items_terms_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sticky_add_search_terms(ARRAY(SELECT DISTINCT unnest(tsvector_to_array(search_vector)) FROM new_items));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sticky_items_terms_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.search_vector IS DISTINCT FROM OLD.search_vector THEN
    PERFORM sticky_add_search_terms(tsvector_to_array(NEW.search_vector));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER items_search_terms_insert AFTER INSERT ON items
  REFERENCING NEW TABLE AS new_items FOR EACH STATEMENT EXECUTE FUNCTION sticky_items_terms_on_insert();
--> statement-breakpoint
CREATE TRIGGER items_search_terms_update AFTER UPDATE OF title, tags, alt_text ON items
  FOR EACH ROW EXECUTE FUNCTION sticky_items_terms_on_update();
--> statement-breakpoint
SELECT sticky_add_search_terms(ARRAY(SELECT DISTINCT unnest(tsvector_to_array(search_vector)) FROM items));
