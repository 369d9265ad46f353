CREATE TABLE "catalog_version" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "catalog_version" ADD CONSTRAINT "catalog_version_single_row" CHECK ("id");
--> statement-breakpoint
INSERT INTO "catalog_version" DEFAULT VALUES;
--> statement-breakpoint
-- A statement that changed rows moves the version; it becomes visible when that transaction
-- commits, together with the change, so a reader never caches old rows under a new version.
CREATE OR REPLACE FUNCTION sticky_catalog_version_bump() RETURNS void LANGUAGE sql AS $$
  UPDATE catalog_version SET version = version + 1
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sticky_catalog_version_on_new_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM changed_rows) THEN PERFORM sticky_catalog_version_bump(); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sticky_catalog_version_on_any() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sticky_catalog_version_bump();
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER items_catalog_version_insert AFTER INSERT ON items
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sticky_catalog_version_on_new_rows();
--> statement-breakpoint
CREATE TRIGGER items_catalog_version_update AFTER UPDATE ON items
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sticky_catalog_version_on_new_rows();
--> statement-breakpoint
CREATE TRIGGER items_catalog_version_delete AFTER DELETE ON items
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sticky_catalog_version_on_new_rows();
--> statement-breakpoint
CREATE TRIGGER items_catalog_version_truncate AFTER TRUNCATE ON items
  FOR EACH STATEMENT EXECUTE FUNCTION sticky_catalog_version_on_any();
--> statement-breakpoint
CREATE TRIGGER creators_catalog_version_update AFTER UPDATE ON creators
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sticky_catalog_version_on_new_rows();
--> statement-breakpoint
CREATE TRIGGER creators_catalog_version_delete AFTER DELETE ON creators
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sticky_catalog_version_on_new_rows();
--> statement-breakpoint
CREATE TRIGGER renditions_catalog_version_insert AFTER INSERT ON renditions
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sticky_catalog_version_on_new_rows();
--> statement-breakpoint
CREATE TRIGGER renditions_catalog_version_update AFTER UPDATE ON renditions
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sticky_catalog_version_on_new_rows();
--> statement-breakpoint
CREATE TRIGGER renditions_catalog_version_delete AFTER DELETE ON renditions
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sticky_catalog_version_on_new_rows();
