-- A word being typed is matched as the catalog words it begins (catalog/query/search.ts,
-- docs/catalog.md "Search"): found through this index, by their prefix.
CREATE INDEX "search_terms_prefix_idx" ON "search_terms" USING btree ("term" text_pattern_ops);