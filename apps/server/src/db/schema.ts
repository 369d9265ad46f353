import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  json,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    picture: text('picture'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    favoritesMergedAt: timestamp('favorites_merged_at', { withTimezone: true }),
    /** The OIDC groups of the last sign-in (claim OIDC_GROUPS_CLAIM): admins by group. */
    groups: text('groups')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** When `groups` were read (the last sign-in): honored for SESSION_MAX_AGE_DAYS after. */
    groupsReadAt: timestamp('groups_read_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_issuer_subject_key').on(t.issuer, t.subject)],
);

export const sessions = pgTable(
  'sessions',
  {
    /** sha256 of the cookie token, hex; the token itself is never stored. */
    tokenHash: text('token_hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true })
      .notNull()
      .default(sql`(now() + interval '90 days')`),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

export const favorites = pgTable(
  'favorites',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Our item id in local mode, GIPHY's id in giphy mode: no foreign key on purpose. */
    itemId: text('item_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.itemId] }),
    // Purging animated text asks whether anyone favorited a rendering (catalog/text).
    index('favorites_item_idx').on(t.itemId),
  ],
);

export const creators = pgTable('creators', {
  id: serial('id').primaryKey(),
  username: text('username').notNull().unique(),
  displayName: text('display_name').notNull(),
  avatarUrl: text('avatar_url').notNull().default(''),
  description: text('description').notNull().default(''),
  profileUrl: text('profile_url').notNull().default(''),
  websiteUrl: text('website_url').notNull().default(''),
  isVerified: boolean('is_verified').notNull().default(false),
  /** Moved by a trigger whenever a shown column changes: its items' documents then go stale. */
  documentVersion: integer('document_version').notNull().default(0),
});

export const items = pgTable(
  'items',
  {
    id: text('id').primaryKey(),
    type: text('type', { enum: ['gif', 'sticker', 'text'] }).notNull(),
    slug: text('slug').notNull(),
    title: text('title').notNull(),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    altText: text('alt_text').notNull().default(''),
    /**
     * The words written inside the image (docs/catalog.md, "Captions"): read by the caption
     * job, given by the starter plan, or edited; searched at weight C.
     */
    caption: text('caption').notNull().default(''),
    /** When the caption was set; null while it is still to be read (`sticky captions`). */
    captionReadAt: timestamp('caption_read_at', { withTimezone: true }),
    rating: text('rating', { enum: ['g', 'pg', 'pg-13', 'r'] })
      .notNull()
      .default('g'),
    ratingRank: integer('rating_rank').notNull().default(0),
    sourceUrl: text('source_url').notNull().default(''),
    creatorId: integer('creator_id').references(() => creators.id, { onDelete: 'set null' }),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    frames: integer('frames').notNull(),
    durationMs: integer('duration_ms').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull().unique(),
    originalFormat: text('original_format', { enum: ['gif', 'webp', 'png', 'jpeg'] }).notNull(),
    /** Renderings of animated text made on demand: served by id, never listed or searched. */
    isDynamic: boolean('is_dynamic').notNull().default(false),
    isIndexable: boolean('is_indexable').notNull().default(true),
    license: text('license').notNull().default(''),
    attribution: text('attribution').notNull().default(''),
    /** Time-decayed popularity, stored pre-scaled so it never needs rewriting (see trending). */
    trendScore: doublePrecision('trend_score').notNull().default(0),
    trendingAt: timestamp('trending_at', { withTimezone: true }),
    /** Who uploaded it (docs/uploads.md); null for imported and starter items. */
    ownerId: text('owner_id').references(() => users.id, { onDelete: 'set null' }),
    /**
     * Set when an admin hides the item: it is then also not indexable, so it leaves search,
     * trending, related and the counts at once; only its owner and admins still open it.
     */
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    /**
     * Who sees it (docs/uploads.md, "Visibility"); an unlisted or private item is also not
     * indexable, so it leaves every list as a hidden one does (migration 0019).
     */
    visibility: text('visibility', { enum: ['public', 'unlisted', 'private'] })
      .notNull()
      .default('public'),
    /**
     * Moved by triggers whenever what the item's JSON shows changes: a shown column or a
     * rendition (migration 0015). A kept document made at another version is never sent
     * (docs/catalog.md, "Item documents").
     */
    documentVersion: integer('document_version').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * Exact words (simple + unaccent): what search matches first and typo correction learns.
     * Title A, tags B, caption C, alt text D (migration 0024; search.ts ranks D as C was).
     */
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      sql`setweight(to_tsvector('sticky_simple', coalesce(title, '')), 'A') || setweight(to_tsvector('sticky_simple', sticky_tags_text(tags)), 'B') || setweight(to_tsvector('sticky_simple', coalesce(caption, '')), 'C') || setweight(to_tsvector('sticky_simple', coalesce(alt_text, '')), 'D')`,
    ),
    /** English stems (+ unaccent), so "dancing cats" also finds "dance" and "cat", ranked lower. */
    searchVectorStem: tsvector('search_vector_stem').generatedAlwaysAs(
      sql`setweight(to_tsvector('sticky_english', coalesce(title, '')), 'A') || setweight(to_tsvector('sticky_english', sticky_tags_text(tags)), 'B') || setweight(to_tsvector('sticky_english', coalesce(caption, '')), 'C') || setweight(to_tsvector('sticky_english', coalesce(alt_text, '')), 'D')`,
    ),
    /**
     * Where the item stands by popularity, coarsely (docs/catalog.md, "Search"): half a unit of
     * trend_score per step, each step split in four by the id's hash; items never viewed spread
     * over 64 steps below every viewed one. Indexed with the search vectors and tags, so a search
     * or a related row reads the matches of the most popular steps first, and only those.
     */
    popularityTier: smallint('popularity_tier').generatedAlwaysAs(
      sql`CASE WHEN trend_score > 0 THEN least(floor(trend_score * 2) * 4 + (hashtext(id) & 3), 32000)::smallint ELSE (-1 - (hashtext(id) & 63))::smallint END`,
    ),
  },
  (t) => [
    // Searched one type at a time (GIPHY's endpoints are per type) and only listable items:
    // one index per type, so a word common in one type is never read for another.
    ...(['gif', 'sticker', 'text'] as const).flatMap((type) => {
      const isListableOfType = sql.raw(`type = '${type}' AND is_indexable AND NOT is_dynamic`);
      // With the popularity tier beside each, as the tier's keys at five granularities
      // (sticky_tier_keys, migration 0012), so one index scan intersects a word's items with
      // the tiers a slice asks for, named in a handful of keys whatever the slice's width.
      const tier = sql`sticky_tier_keys(popularity_tier)`;
      return [
        index(`items_${type}_search_tier_idx`)
          .using('gin', t.searchVector, tier)
          .where(isListableOfType),
        index(`items_${type}_search_stem_tier_idx`)
          .using('gin', t.searchVectorStem, tier)
          .where(isListableOfType),
        index(`items_${type}_tags_tier_idx`).using('gin', t.tags, tier).where(isListableOfType),
        // Each English stem joined with each of the item's tier keys (sticky_stem_tiers,
        // migration 0017): a slice's matches of a plain query are found by their own keys,
        // without reading the tiers' long lists (docs/catalog.md, "Popularity slices").
        index(`items_${type}_stem_tiers_idx`)
          .using('gin', sql`sticky_stem_tiers(search_vector_stem, popularity_tier)`)
          .where(isListableOfType),
      ];
    }),
    index('items_title_trgm_idx').using('gin', sql`${t.title} gin_trgm_ops`),
    index('items_tags_idx').using('gin', t.tags),
    index('items_type_trend_idx').on(t.type, t.trendScore.desc(), t.id),
    index('items_type_created_idx').on(t.type, t.createdAt.desc(), t.id),
    index('items_caption_unread_idx')
      .on(t.id)
      .where(sql`caption_read_at IS NULL`),
    index('items_owner_idx')
      .on(t.ownerId, t.createdAt.desc())
      .where(sql`owner_id IS NOT NULL`),
    // Renderings of animated text past their keep time are purged (catalog/text).
    index('items_dynamic_created_idx')
      .on(t.createdAt)
      .where(sql`is_dynamic`),
    check('items_visibility_check', sql`${t.visibility} IN ('public', 'unlisted', 'private')`),
    check('items_caption_length_check', sql`char_length(${t.caption}) <= 1000`),
  ],
);

export const renditions = pgTable(
  'renditions',
  {
    itemId: text('item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    format: text('format', { enum: ['gif', 'webp', 'mp4', 'webm', 'png', 'jpeg'] }).notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    frames: integer('frames').notNull().default(1),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    /** Path under DATA_DIR/media, content-addressed. */
    path: text('path').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.itemId, t.name, t.format] }),
    // Start-up cleanup and failed imports ask which files are still referenced.
    index('renditions_path_idx').on(t.path),
  ],
);

export const categories = pgTable(
  'categories',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    nameEncoded: text('name_encoded').notNull(),
    parentId: integer('parent_id'),
    featuredItemId: text('featured_item_id').references(() => items.id, { onDelete: 'set null' }),
    position: integer('position').notNull().default(0),
  },
  (t) => [
    uniqueIndex('categories_parent_name_key').on(sql`coalesce(${t.parentId}, 0)`, t.nameEncoded),
  ],
);

export const itemCategories = pgTable(
  'item_categories',
  {
    itemId: text('item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    categoryId: integer('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.itemId, t.categoryId] }),
    index('item_categories_category_idx').on(t.categoryId),
  ],
);

/**
 * Who searched a query on a day (a digest, never the person's id): trending searches count
 * people, not requests (docs/catalog.md, "Trending"). Only today's rows are needed; older
 * days are pruned.
 */
export const searchQuerySearchers = pgTable(
  'search_query_searchers',
  {
    query: text('query').notNull(),
    day: date('day').notNull(),
    searcher: text('searcher').notNull(),
  },
  (t) => [primaryKey({ columns: [t.query, t.day, t.searcher] })],
);

/** New animated-text renderings per person (a digest) and day: the daily quota. */
export const textRenderCounts = pgTable(
  'text_render_counts',
  {
    requester: text('requester').notNull(),
    day: date('day').notNull(),
    renders: integer('renders').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.requester, t.day] })],
);

/**
 * Listable items per tag and rating, kept exact by triggers on items (migration 0009): tag
 * autocomplete reads the range of tags that start with what was typed, not every tag.
 */
export const catalogTags = pgTable(
  'catalog_tags',
  {
    tag: text('tag').notNull(),
    rating: text('rating').notNull(),
    uses: bigint('uses', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.tag, t.rating] }),
    index('catalog_tags_prefix_idx').using('btree', t.tag.op('text_pattern_ops')),
  ],
);

/** One row per user, item, kind and day: the trending signal counts each at most once a day. */
export const itemEvents = pgTable(
  'item_events',
  {
    itemId: text('item_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['view', 'copy', 'download', 'favorite'] }).notNull(),
    day: date('day').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.itemId, t.userId, t.kind, t.day] })],
);

/**
 * People who searched a phrase on a day and found GIFs or stickers (once each): trending
 * searches read 7 days, the admin overview 30 (docs/operations.md, "Admin overview").
 */
export const searchQueries = pgTable(
  'search_queries',
  {
    query: text('query').notNull(),
    day: date('day').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.query, t.day] }), index('search_queries_day_idx').on(t.day)],
);

/** The same for searches that found nothing: what the catalog lacks (migration 0028). */
export const searchMisses = pgTable(
  'search_misses',
  {
    query: text('query').notNull(),
    day: date('day').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.query, t.day] }), index('search_misses_day_idx').on(t.day)],
);

/**
 * Every distinct word of the catalog's search text (kept by a trigger on items), so a misspelt
 * query word can be corrected to a word that exists, and a word being typed matched as the
 * words it begins (docs/catalog.md, "Search").
 */
export const searchTerms = pgTable('search_terms', { term: text('term').primaryKey() }, (t) => [
  index('search_terms_trgm_idx').using('gin', sql`${t.term} gin_trgm_ops`),
  index('search_terms_prefix_idx').using('btree', t.term.op('text_pattern_ops')),
]);

/**
 * Each term under itself and with one letter deleted: two words one edit apart (a swap, a
 * missing, extra or wrong letter) share a variant, found by an index lookup.
 */
export const searchTermVariants = pgTable(
  'search_term_variants',
  {
    variant: text('variant').notNull(),
    term: text('term')
      .notNull()
      .references(() => searchTerms.term, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.variant, t.term] })],
);

/**
 * How many listable items (indexable, not on-the-fly renderings) there are per type and
 * rating, kept exact by triggers on items (migration 0004): trending's total_count without
 * counting a million rows on every request.
 */
export const catalogCounts = pgTable(
  'catalog_counts',
  {
    type: text('type').notNull(),
    rating: text('rating').notNull(),
    count: bigint('count', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.type, t.rating] })],
);

/**
 * One row whose version moves with every committed change to the catalog's items (other than
 * their popularity), renditions or creators (triggers, migrations 0006 and 0009): answers
 * kept in memory are served while it has not moved (docs/catalog.md, "Caches and versions").
 */
export const catalogVersion = pgTable('catalog_version', {
  id: boolean('id').primaryKey().default(true),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});

/**
 * One row whose version moves when one item's text alone changed (its title, tags, alt text…,
 * migration 0023), announced with the item's id: kept answers that show it are dropped, the
 * others stay (docs/catalog.md, "Caches and versions").
 */
export const itemTextVersion = pgTable('item_text_version', {
  id: boolean('id').primaryKey().default(true),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});

/**
 * One row whose version moves when popularity changes (an item's trend_score or trending_at,
 * migration 0009): trending pages follow it within their maximum age; nothing else is emptied.
 */
export const popularityVersion = pgTable('popularity_version', {
  id: boolean('id').primaryKey().default(true),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});

/**
 * Each related key's most popular listable items, per item type (docs/catalog.md, "Related"):
 * `t:<tag>` and `w:<stem>` as related.ts names them, rebuilt set-based by a job
 * (catalog/import/related-lists-job.ts, migration 0013), so an item's first related page reads
 * its keys' lists instead of slicing the catalog.
 */
export const relatedKeys = pgTable(
  'related_keys',
  {
    type: text('type').notNull(),
    key: text('key').notNull(),
    /** The most popular first, at most the list length the lists were built with. */
    itemIds: text('item_ids').array().notNull(),
    /** Every listable item of the type with the key, when the lists were built. */
    itemCount: integer('item_count').notNull(),
    /**
     * What the first related page ranks by of each of the first `relatedListHead` listed
     * items, in `itemIds`' order, as it was when the lists were built
     * (catalog/query/related-lists.ts, `ListEntry`; migration 0018)...
     */
    entries: json('entries'),
    /** ...and of the rest, read only when a list's head is short (null when there is none). */
    restEntries: json('rest_entries'),
  },
  (t) => [primaryKey({ columns: [t.key, t.type] })],
);

/**
 * A number for each related key listed (migration 0018): the related lists' entries name
 * each item's keys by number, a fraction of the size of the keys themselves.
 */
export const relatedKeyNames = pgTable('related_key_names', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  key: text('key').notNull().unique(),
});

/**
 * One row: how many changes to items the related lists may be missing (`changes`, moved by
 * triggers, migration 0013) and which of them the lists hold (`built_changes`, null before the
 * first build).
 */
export const relatedListsState = pgTable('related_lists_state', {
  id: boolean('id').primaryKey().default(true),
  changes: bigint('changes', { mode: 'number' }).notNull().default(0),
  builtChanges: bigint('built_changes', { mode: 'number' }),
  listLength: integer('list_length'),
  /** The layout of the lists' entries they were built with (related-lists.ts). */
  listFormat: integer('list_format'),
  /**
   * `built_changes` when the entries were last written with the lists: a server from before
   * migration 0018 rebuilds the lists without them, and moves `built_changes` alone.
   */
  entriesBuiltChanges: bigint('entries_built_changes', { mode: 'number' }),
  builtAt: timestamp('built_at', { withTimezone: true }),
});

/**
 * Items added or changed (title, tags, alt text, type, rating, listable) since the related
 * lists were built, written by triggers (migration 0013): an item's first related page reads
 * them beside its keys' lists, so an edit shows at once; a rebuild removes those it holds.
 */
export const relatedListsChanges = pgTable('related_lists_changes', {
  seq: bigserial('seq', { mode: 'number' }).primaryKey(),
  itemId: text('item_id').notNull(),
});

/**
 * Items' JSON kept in the database, so a cold page reads it instead of serializing
 * (catalog/query/item-documents.ts; docs/catalog.md, "Item documents"): with the site's URLs as
 * placeholders, valid while the item's and its creator's document versions and the
 * serializer's format are the ones it was made from. Kept for the most popular items only.
 */
export const itemDocuments = pgTable('item_documents', {
  itemId: text('item_id')
    .primaryKey()
    .references(() => items.id, { onDelete: 'cascade' }),
  format: text('format').notNull(),
  itemVersion: integer('item_version').notNull(),
  creatorVersion: integer('creator_version').notNull(),
  json: text('json').notNull(),
});

/** Landing page views: a daily count per path, no cookie, no personal data. */
export const pageViews = pgTable(
  'page_views',
  {
    day: date('day').notNull(),
    path: text('path').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.path] })],
);

export const importJobs = pgTable('import_jobs', {
  id: serial('id').primaryKey(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
  summary: jsonb('summary'),
});

/** One row per version of the starter catalog that was seeded, so later starts skip it. */
export const starterCatalogSeeds = pgTable('starter_catalog_seeds', {
  version: integer('version').primaryKey(),
  completedAt: timestamp('completed_at', { withTimezone: true }).notNull().defaultNow(),
  summary: jsonb('summary').notNull(),
});

/**
 * One row per file sent to `POST /api/uploads` or the import CLI (docs/uploads.md): accepted
 * files wait in staging while a job makes the item; the row then points at it (a new item, or
 * the existing one with the same bytes) or says why the file was refused.
 */
export const uploads = pgTable(
  'uploads',
  {
    id: text('id').primaryKey(),
    /** Null for files the CLI imports. */
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    itemId: text('item_id').references(() => items.id, { onDelete: 'cascade' }),
    state: text('state', { enum: ['processing', 'ready', 'failed'] }).notNull(),
    /** Why the file was refused or failed, in words a person can act on. */
    reason: text('reason'),
    fileName: text('file_name').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    /**
     * The hash of the file as received, before its metadata was stripped: blocked beside the
     * item's when an admin hides or removes it (docs/security.md, "Moderation").
     */
    receivedSha256: text('received_sha256'),
    /** Title, tags, type, category, rating and source as sent. */
    metadata: jsonb('metadata').notNull(),
    /** Decoded megapixels charged to the owner's day (UPLOAD_MEGAPIXELS_PER_DAY); 0 until decoded. */
    megapixels: doublePrecision('megapixels').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('uploads_user_created_idx').on(t.userId, t.createdAt.desc()),
    index('uploads_created_idx').on(t.createdAt.desc()),
    index('uploads_item_idx').on(t.itemId),
    index('uploads_processing_idx')
      .on(t.createdAt)
      .where(sql`state = 'processing'`),
  ],
);

/** Bytes as PostgreSQL's bytea, read and written as Buffers. */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * An accepted upload's file while it waits for its job (docs/uploads.md, "Staging"): in the
 * database, so it commits with its row and its job, every server on the database can process
 * it, and nothing is left behind when a request is cut off or a process killed. Deleted with
 * the job's outcome.
 */
export const uploadFiles = pgTable('upload_files', {
  uploadId: text('upload_id')
    .primaryKey()
    .references(() => uploads.id, { onDelete: 'cascade' }),
  bytes: bytea('bytes').notNull(),
});

/** Personal API tokens (docs/security.md, "API tokens"): only a sha256 of each is kept. */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    /** What the token may do (contracts' `tokenScopeSchema`), chosen when it is made. */
    scopes: text('scopes')
      .array()
      .notNull()
      .default(sql`'{upload}'::text[]`),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** The visibility of its uploads that name none (docs/uploads.md, "Visibility"). */
    visibility: text('visibility', { enum: ['public', 'unlisted', 'private'] })
      .notNull()
      .default('unlisted'),
  },
  (t) => [
    index('api_tokens_user_idx').on(t.userId),
    check('api_tokens_visibility_check', sql`${t.visibility} IN ('public', 'unlisted', 'private')`),
  ],
);

/**
 * Files that may not be uploaded again (docs/security.md, "Moderation"): the hashes of an item
 * an admin hid or removed, as stored and as first received. `item_id` stays after the item is
 * deleted, to say where the hash came from.
 */
export const blockedHashes = pgTable('blocked_hashes', {
  sha256: text('sha256').primaryKey(),
  itemId: text('item_id'),
  blockedBy: text('blocked_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** People an admin stopped from uploading, with the reason they are shown. */
export const uploadBans = pgTable('upload_bans', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  reason: text('reason').notNull(),
  bannedBy: text('banned_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Reports of items by signed-in people; one open report per person and item. */
export const itemReports = pgTable(
  'item_reports',
  {
    id: text('id').primaryKey(),
    itemId: text('item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    reporterId: text('reporter_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    note: text('note').notNull().default(''),
    state: text('state', { enum: ['open', 'resolved', 'dismissed'] })
      .notNull()
      .default('open'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    closedBy: text('closed_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('item_reports_open_key')
      .on(t.itemId, t.reporterId)
      .where(sql`state = 'open'`),
    index('item_reports_state_created_idx').on(t.state, t.createdAt.desc()),
  ],
);

/** Every admin action, newest first on /admin: who, what, when. */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    actorId: text('actor_id').references(() => users.id, { onDelete: 'set null' }),
    /** Kept as it was, so the list still says who after the account is gone. */
    actorName: text('actor_name').notNull(),
    action: text('action').notNull(),
    /** What was acted on: an item id, a hash, a person or a category, as shown. */
    target: text('target').notNull(),
    detail: text('detail').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('audit_events_created_idx').on(t.createdAt.desc())],
);

/** The last request each chat platform sent, and whether it verified (migration 0025). */
export const integrationRequests = pgTable('integration_requests', {
  platform: text('platform').primaryKey(),
  lastAt: timestamp('last_at', { withTimezone: true }).notNull(),
  isVerified: boolean('is_verified').notNull(),
  lastVerifiedAt: timestamp('last_verified_at', { withTimezone: true }),
});

/** Shares made from a chat, once per item, platform, chat user and day (migration 0025). */
export const chatItemEvents = pgTable(
  'chat_item_events',
  {
    itemId: text('item_id').notNull(),
    platform: text('platform').notNull(),
    actor: text('actor').notNull(),
    day: date('day').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({
      name: 'chat_item_events_pk',
      columns: [t.itemId, t.platform, t.actor, t.day],
    }),
  ],
);
