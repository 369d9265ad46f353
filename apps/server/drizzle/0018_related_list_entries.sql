CREATE TABLE "related_key_names" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "related_key_names_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"key" text NOT NULL,
	CONSTRAINT "related_key_names_key_unique" UNIQUE("key")
);
--> statement-breakpoint
ALTER TABLE "related_keys" ADD COLUMN "entries" json;--> statement-breakpoint
ALTER TABLE "related_keys" ADD COLUMN "rest_entries" json;--> statement-breakpoint
ALTER TABLE "related_lists_state" ADD COLUMN "list_format" integer;--> statement-breakpoint
ALTER TABLE "related_lists_state" ADD COLUMN "entries_built_changes" bigint;--> statement-breakpoint
-- The first related page now ranks the listed items by what the lists say of them, reading only
-- the items noted here as they are now (docs/catalog.md, "Related"): a deleted item must be
-- noted too, or it would stay on related pages until the next rebuild.
CREATE OR REPLACE FUNCTION sticky_related_lists_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM changed_rows) THEN
    INSERT INTO related_lists_changes (item_id) SELECT id FROM changed_rows;
    PERFORM sticky_related_lists_changed();
  END IF;
  RETURN NULL;
END $$;
