-- The last request each chat platform sent and whether its signature or token verified, for
-- /admin → Integrations: kept here so that every instance behind a balancer shows the same
-- (docs/integrations.md, "What the admin page shows").
CREATE TABLE "integration_requests" (
	"platform" text PRIMARY KEY NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	"is_verified" boolean NOT NULL,
	"last_verified_at" timestamp with time zone
);
--> statement-breakpoint
-- Shares made from a chat (a Send), counted towards trending as a signed-in person's copy is
-- (item_events): once per item, platform, chat user and UTC day. `actor` is a digest of the
-- platform's team and user ids, never the ids themselves (docs/integrations.md, "Shares").
CREATE TABLE "chat_item_events" (
	"item_id" text NOT NULL,
	"platform" text NOT NULL,
	"actor" text NOT NULL,
	"day" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chat_item_events_pk" PRIMARY KEY("item_id","platform","actor","day")
);
