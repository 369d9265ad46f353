-- Searches that found nothing, per normalized phrase and UTC day (docs/operations.md, "Admin
-- overview"): what the catalog lacks. Like search_queries, each person counts once per phrase and
-- day and no one is named; both are kept 30 days. The day indexes let the overview sum the last
-- 30 days without reading older rows.
CREATE TABLE "search_misses" (
	"query" text NOT NULL,
	"day" date NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "search_misses_query_day_pk" PRIMARY KEY("query","day")
);
--> statement-breakpoint
CREATE INDEX "search_misses_day_idx" ON "search_misses" USING btree ("day");
--> statement-breakpoint
CREATE INDEX "search_queries_day_idx" ON "search_queries" USING btree ("day");
