-- Who sees an item (docs/uploads.md, "Visibility"). Every item so far was public. An item that is
-- unlisted or private is also not indexable (like a hidden one), so it leaves search, trending,
-- related, categories, autocomplete and the counts through the mechanism they already follow; the
-- column itself is what by-id answers, media and the item's page read.
ALTER TABLE "items" ADD COLUMN "visibility" text DEFAULT 'public' NOT NULL;--> statement-breakpoint
ALTER TABLE "items" ADD CONSTRAINT "items_visibility_check" CHECK ("visibility" IN ('public', 'unlisted', 'private'));--> statement-breakpoint
-- A personal API token's uploads get its own default when they name none (ShareX sends none).
ALTER TABLE "api_tokens" ADD COLUMN "visibility" text DEFAULT 'unlisted' NOT NULL;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_visibility_check" CHECK ("visibility" IN ('public', 'unlisted', 'private'));
