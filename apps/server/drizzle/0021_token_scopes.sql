ALTER TABLE "api_tokens" ADD COLUMN "scopes" text[] DEFAULT '{upload}'::text[] NOT NULL;--> statement-breakpoint
-- Tokens made before scopes existed sent files and edited their owner's items (ShareX, scripts):
-- they keep exactly that, and no reads or admin powers (docs/security.md, "API tokens").
UPDATE "api_tokens" SET "scopes" = '{upload,items}'::text[];--> statement-breakpoint
-- A token lives 90 days unless made otherwise; those made before live 90 days from now.
ALTER TABLE "api_tokens" ADD COLUMN "expires_at" timestamp with time zone DEFAULT (now() + interval '90 days') NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "groups_read_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
-- Groups are written at every sign-in, which moves updated_at: the best record of their reading.
UPDATE "users" SET "groups_read_at" = "updated_at";
