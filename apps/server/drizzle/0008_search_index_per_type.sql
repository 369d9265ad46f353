DROP INDEX "items_search_idx";--> statement-breakpoint
DROP INDEX "items_search_stem_idx";--> statement-breakpoint
CREATE INDEX "items_gif_search_idx" ON "items" USING gin ("search_vector") WHERE type = 'gif' AND is_indexable AND NOT is_dynamic;--> statement-breakpoint
CREATE INDEX "items_gif_search_stem_idx" ON "items" USING gin ("search_vector_stem") WHERE type = 'gif' AND is_indexable AND NOT is_dynamic;--> statement-breakpoint
CREATE INDEX "items_sticker_search_idx" ON "items" USING gin ("search_vector") WHERE type = 'sticker' AND is_indexable AND NOT is_dynamic;--> statement-breakpoint
CREATE INDEX "items_sticker_search_stem_idx" ON "items" USING gin ("search_vector_stem") WHERE type = 'sticker' AND is_indexable AND NOT is_dynamic;--> statement-breakpoint
CREATE INDEX "items_text_search_idx" ON "items" USING gin ("search_vector") WHERE type = 'text' AND is_indexable AND NOT is_dynamic;--> statement-breakpoint
CREATE INDEX "items_text_search_stem_idx" ON "items" USING gin ("search_vector_stem") WHERE type = 'text' AND is_indexable AND NOT is_dynamic;