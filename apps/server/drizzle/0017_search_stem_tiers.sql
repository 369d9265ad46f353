-- Each English stem of an item joined with each of its tier keys at the four finest
-- granularities (1, 4, 16 and 64 tiers; sticky_tier_keys, migration 0012), as a tsvector of
-- `stem@key` lexemes: `awesom@1000339` is "awesome" in tiers 1292 to 1295. A slice's matches
-- of a plain query are then found by their own short lists, where the index of 0012 intersects
-- the word's items with every item of the slice's tiers, most of a common word's scan at a
-- million items (docs/catalog.md, "Popularity slices"). Longer stems are left out (a tsvector's
-- lexeme is at most 2 KB); a query with one is matched the other way (search.ts).
-- Its search_path is the migration's: an index expression runs with only pg_catalog's.
CREATE OR REPLACE FUNCTION sticky_stem_tiers(stems tsvector, tier smallint) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE SET search_path FROM CURRENT AS $$
  SELECT array_to_tsvector(ARRAY(
    SELECT lexeme || '@' || key
    FROM unnest(tsvector_to_array(stems)) lexeme, unnest((sticky_tier_keys(tier))[1:4]) key
    WHERE octet_length(lexeme) <= 200))
$$;
--> statement-breakpoint
-- A query of English stems (ANDs and ORs of lexemes: no negation, weight, prefix or phrase) as
-- the same query of sticky_stem_tiers' lexemes for the tiers [low, high): each lexeme becomes
-- the OR of itself at the range's keys (sticky_tier_range_keys, its 256-tier keys as their four
-- 64-tier ones). An empty range matches nothing. Parallel unsafe on purpose: the planner,
-- which knows few of these lexemes' frequencies, would guess a slice's few hundred matches to
-- be tens of thousands and start two workers for them, 20 ms more; no statement it is in runs
-- in parallel.
CREATE OR REPLACE FUNCTION sticky_stem_tier_query(query tsquery, low int, high int) RETURNS tsquery LANGUAGE sql IMMUTABLE PARALLEL UNSAFE AS $$
  SELECT regexp_replace(query::text, '''((?:[^'']|'''')*)''',
    '(' || coalesce((
      SELECT string_agg(format('''\1@%s''', CASE WHEN key >= 4000000 THEN 3000000 + (key - 4000000) * 4 + part ELSE key END), ' | ')
      FROM unnest(sticky_tier_range_keys(low, high)) key,
        generate_series(0, CASE WHEN key >= 4000000 THEN 3 ELSE 0 END) part
    ), '''\1@-1''') || ')', 'g')::tsquery
$$;
--> statement-breakpoint
CREATE INDEX "items_gif_stem_tiers_idx" ON "items" USING gin (sticky_stem_tiers(search_vector_stem, popularity_tier)) WHERE type = 'gif' AND is_indexable AND NOT is_dynamic;--> statement-breakpoint
CREATE INDEX "items_sticker_stem_tiers_idx" ON "items" USING gin (sticky_stem_tiers(search_vector_stem, popularity_tier)) WHERE type = 'sticker' AND is_indexable AND NOT is_dynamic;--> statement-breakpoint
CREATE INDEX "items_text_stem_tiers_idx" ON "items" USING gin (sticky_stem_tiers(search_vector_stem, popularity_tier)) WHERE type = 'text' AND is_indexable AND NOT is_dynamic;