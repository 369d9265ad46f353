import type { ItemVisibility, OwnedItem, SessionUser, UpdateItemRequest } from '@sticky/contracts';
import { eq, sql } from 'drizzle-orm';
import { buildDefaultAltText } from '../catalog/alt-text.ts';
import { buildSlug, normaliseTags, ratingRanks } from '../catalog/import/item-naming.ts';
import { removeUnreferencedFiles } from '../catalog/import/media-files.ts';
import { withTransaction } from '../db/transaction.ts';
import { isContentAddressedPath } from '../storage/media-paths.ts';
import type { Media } from '../catalog/import/media-services.ts';
import type { CommitNotice } from '../catalog/query/catalog-versions.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { itemCategories, items, renditions } from '../db/schema.ts';
import { AppError } from '../lib/app-error.ts';
import { recordAuditEvent } from '../moderation/audit-log.ts';
import { blockItemHashes } from '../moderation/block-list.ts';
import { findCategoryId, unknownCategoryMessage } from '../moderation/managed-categories.ts';
import { categoryNameSql, toItemDetails } from './item-details.ts';
import type { ItemDetailsRow } from './item-details.ts';

export interface OwnedItemsDeps extends CommitNotice {
  database: DatabaseHandle;
  /** Where a deleted item's files are removed from (media-services.ts). */
  media: Pick<Media, 'store'>;
}

type OwnedItemRow = ItemDetailsRow & {
  id: string;
  owner_id: string | null;
  owner_name: string | null;
  owner_email: string | null;
  hidden_at: Date | null;
  visibility: ItemVisibility;
  is_dynamic: boolean;
  frames: number;
};

/** Who may do what with an item (docs/uploads.md, "Who may do what"). */
function rightsOf(user: SessionUser, row: Pick<OwnedItemRow, 'owner_id'>) {
  const isOwner = row.owner_id !== null && row.owner_id === user.id;
  return {
    canEdit: isOwner || user.isAdmin,
    canDelete: isOwner || user.isAdmin,
    canHide: user.isAdmin,
  };
}

async function loadOwnedItemRow(
  db: DatabaseHandle['db'],
  id: string,
): Promise<OwnedItemRow | undefined> {
  const result = await db.execute<OwnedItemRow>(sql`
    SELECT i.id, i.title, i.tags, i.type, i.rating, i.source_url, i.caption, i.owner_id, i.hidden_at,
      i.visibility, i.is_dynamic, i.frames, ${categoryNameSql('i')} AS category,
      owner.name AS owner_name, owner.email AS owner_email
    FROM items i LEFT JOIN users owner ON owner.id = i.owner_id
    WHERE i.id = ${id}`);
  return result.rows[0];
}

function toOwnedItem(user: SessionUser, row: OwnedItemRow): OwnedItem {
  const rights = rightsOf(user, row);
  const isAdminView = user.isAdmin || row.owner_id === user.id;
  return {
    id: row.id,
    details: toItemDetails(row),
    visibility: row.visibility,
    isHidden: row.hidden_at !== null,
    // Who uploaded what is for admins and the owner, never for everyone.
    owner:
      isAdminView && row.owner_id
        ? { id: row.owner_id, name: row.owner_name ?? '', email: row.owner_email ?? '' }
        : null,
    ...rights,
  };
}

const notFound = () => new AppError('not_found', 'There is no item with this id.');

/**
 * Whether the item exists for this person: a hidden or private item only for its owner and
 * admins (docs/uploads.md, "Visibility").
 */
function isSeenBy(
  user: SessionUser,
  row: { ownerId: string | null; hiddenAt: Date | null; visibility: ItemVisibility },
): boolean {
  if (!row.hiddenAt && row.visibility !== 'private') return true;
  return user.isAdmin || (row.ownerId !== null && row.ownerId === user.id);
}

/**
 * An item is listed (in search, trending, related, categories, counts) only while it is public,
 * not hidden and not a rendering made on demand: every list reads `is_indexable`, so this one
 * column takes it out of all of them at once (docs/uploads.md, "Visibility").
 */
function isListable(row: {
  hiddenAt: Date | null;
  visibility: ItemVisibility;
  isDynamic: boolean;
}): boolean {
  return row.hiddenAt === null && row.visibility === 'public' && !row.isDynamic;
}

/** An item as its owner and admins manage it; a hidden item exists only for them. */
export async function getOwnedItem(
  deps: OwnedItemsDeps,
  user: SessionUser,
  id: string,
): Promise<OwnedItem> {
  const row = await loadOwnedItemRow(deps.database.db, id);
  if (!row) throw notFound();
  const seen = { ownerId: row.owner_id, hiddenAt: row.hidden_at, visibility: row.visibility };
  if (!isSeenBy(user, seen)) throw notFound();
  return toOwnedItem(user, row);
}

/** An edit or a deletion is only rows: run again if it met an import's locks the other way. */
const retriedOnConflict = { isRetriedOnConflict: true };

/**
 * Changes what was sent; each field only when given. Search, trending, related and /v1 follow
 * at once: the item's row changes, which moves the catalog version their caches are kept under
 * (docs/catalog.md, "Caches and versions"); a category change moves it explicitly.
 */
export async function updateOwnedItem(
  deps: OwnedItemsDeps,
  user: SessionUser,
  id: string,
  changes: UpdateItemRequest,
): Promise<OwnedItem> {
  await withTransaction(
    deps.database,
    async ({ tx }) => {
      const [row] = await tx
        .select({
          ownerId: items.ownerId,
          hiddenAt: items.hiddenAt,
          visibility: items.visibility,
          title: items.title,
          type: items.type,
          altText: items.altText,
          frames: items.frames,
          isDynamic: items.isDynamic,
        })
        .from(items)
        .where(eq(items.id, id))
        .for('update');
      if (!row || !isSeenBy(user, row)) throw notFound();
      const rights = rightsOf(user, { owner_id: row.ownerId });
      if (!rights.canEdit) {
        throw new AppError(
          'forbidden',
          'Only the person who uploaded this item, or an admin, may edit it.',
        );
      }
      if (changes.isHidden !== undefined && !rights.canHide) {
        throw new AppError('forbidden', 'Only admins may hide or unhide an item.');
      }
      if (changes.type !== undefined && row.type === 'text') {
        throw new AppError('bad_request', 'type: animated text stays text.');
      }
      const set: Partial<typeof items.$inferInsert> = {};
      if (changes.title !== undefined) {
        const title = changes.title.trim();
        set.title = title;
        set.slug = buildSlug(title, id);
        // An alt text Sticky wrote follows the title; one a person wrote stays.
        const type = changes.type ?? row.type;
        if (row.altText === buildDefaultAltText(row.title, row.type, row.frames > 1)) {
          set.altText = buildDefaultAltText(title, type, row.frames > 1);
        }
      }
      if (changes.tags !== undefined) set.tags = normaliseTags(changes.tags);
      if (changes.type !== undefined) set.type = changes.type;
      if (changes.rating !== undefined) {
        set.rating = changes.rating;
        set.ratingRank = ratingRanks[changes.rating];
      }
      if (changes.sourceUrl !== undefined) set.sourceUrl = changes.sourceUrl;
      // A person's words stand: the reader writes only unread rows (catalog/captions).
      if (changes.caption !== undefined) {
        set.caption = changes.caption;
        set.captionReadAt = new Date();
      }
      if (changes.isHidden !== undefined) {
        set.hiddenAt = changes.isHidden ? (row.hiddenAt ?? new Date()) : null;
        if (changes.isHidden !== (row.hiddenAt !== null)) {
          // Its bytes cannot come back as a new upload; unhiding leaves them blocked until an
          // admin unblocks them (docs/security.md, "Moderation").
          if (changes.isHidden) await blockItemHashes(tx, user, id);
          await recordAuditEvent(tx, user, {
            action: changes.isHidden ? 'item.hide' : 'item.unhide',
            target: `item ${id}`,
            detail: row.title,
          });
        }
      }
      if (changes.visibility !== undefined) set.visibility = changes.visibility;
      if (changes.isHidden !== undefined || changes.visibility !== undefined) {
        // Hidden, unlisted and private leave every list at once: they all read indexable items.
        set.isIndexable = isListable({
          hiddenAt: set.hiddenAt === undefined ? row.hiddenAt : set.hiddenAt,
          visibility: set.visibility ?? row.visibility,
          isDynamic: row.isDynamic,
        });
      }
      if (Object.keys(set).length > 0) await tx.update(items).set(set).where(eq(items.id, id));
      if (changes.category !== undefined) {
        await tx.delete(itemCategories).where(eq(itemCategories.itemId, id));
        const name = changes.category?.trim();
        if (name) {
          const parts = name.split('/').map((part) => part.trim());
          if (parts.length > 2 || parts.some((part) => part === '')) {
            throw new AppError('bad_request', 'category: name it "Name" or "Parent/Sub".');
          }
          // Only admins make categories (docs/security.md, "Moderation").
          const categoryId = await findCategoryId(tx, name);
          if (categoryId === undefined) throw new AppError('bad_request', unknownCategoryMessage);
          await tx.insert(itemCategories).values({ itemId: id, categoryId });
        }
        await tx.execute(sql`SELECT sticky_catalog_version_bump()`);
      }
    },
    retriedOnConflict,
  );
  // An edit of its text alone moves no catalog_version: what shows it goes now, here.
  deps.services?.versions.noteCommittedChange({ itemIds: [id] });
  return getOwnedItem(deps, user, id);
}

/**
 * Deletes an item with its renditions and the files no other item shares. Favorites of it stay
 * as ids (they point at GIPHY's ids too, without a foreign key) and are skipped when listed.
 */
export async function deleteOwnedItem(
  deps: OwnedItemsDeps,
  user: SessionUser,
  id: string,
): Promise<void> {
  const paths = await withTransaction(
    deps.database,
    async ({ tx }) => {
      const [row] = await tx
        .select({
          ownerId: items.ownerId,
          hiddenAt: items.hiddenAt,
          title: items.title,
          visibility: items.visibility,
        })
        .from(items)
        .where(eq(items.id, id))
        .for('update');
      if (!row || !isSeenBy(user, row)) throw notFound();
      if (!rightsOf(user, { owner_id: row.ownerId }).canDelete) {
        throw new AppError(
          'forbidden',
          'Only the person who uploaded this item, or an admin, may delete it.',
        );
      }
      const files = await tx
        .select({ path: renditions.path })
        .from(renditions)
        .where(eq(renditions.itemId, id));
      if (user.isAdmin && row.ownerId !== user.id) {
        // An admin removing someone's item is moderation: its bytes are blocked and the action
        // is audited, before the deletion takes the item's upload rows (and their hashes).
        await blockItemHashes(tx, user, id);
        await recordAuditEvent(tx, user, {
          action: 'item.delete',
          target: `item ${id}`,
          detail: row.title,
        });
      }
      await tx.delete(items).where(eq(items.id, id));
      // Only files the import put in place are ours to remove (older catalogs may name others).
      return [...new Set(files.map((file) => file.path))].filter(isContentAddressedPath);
    },
    retriedOnConflict,
  );
  deps.services?.versions.noteCommittedChange();
  await removeUnreferencedFiles(deps.database, deps.media.store, paths);
}
