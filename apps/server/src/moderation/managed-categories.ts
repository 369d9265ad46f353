import type { ManagedCategory } from '@sticky/contracts';
import { and, eq, isNull, or, sql } from 'drizzle-orm';
import { encodeCategoryName } from '../catalog/category-names.ts';
import { isUniqueViolation } from '../db/database-errors.ts';
import { withTransaction } from '../db/transaction.ts';
import type { Transaction } from '../db/transaction.ts';
import type { CommitNotice } from '../catalog/query/catalog-versions.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { categories } from '../db/schema.ts';
import { AppError } from '../lib/app-error.ts';
import { recordAuditEvent } from './audit-log.ts';
import type { Actor } from './audit-log.ts';

export interface CategoriesDeps extends CommitNotice {
  database: DatabaseHandle;
}

type Reader = DatabaseHandle['db'] | Transaction;

/**
 * The category a path names (`Name` or `Parent/Sub`), or undefined: uploads and edits choose
 * from the categories admins made, never create one (docs/security.md, "Moderation").
 */
export async function findCategoryId(db: Reader, path: string): Promise<number | undefined> {
  const parts = path.split('/').map((part) => encodeCategoryName(part.trim()));
  if (parts.length > 2 || parts.some((part) => part === '')) return undefined;
  let parentId: number | null = null;
  for (const nameEncoded of parts) {
    const [row]: Array<{ id: number }> = await db
      .select({ id: categories.id })
      .from(categories)
      .where(
        and(
          eq(categories.nameEncoded, nameEncoded),
          parentId === null ? isNull(categories.parentId) : eq(categories.parentId, parentId),
        ),
      )
      .limit(1);
    if (!row) return undefined;
    parentId = row.id;
  }
  return parentId ?? undefined;
}

/** What an upload or an edit naming a category that is not there is told. */
export const unknownCategoryMessage =
  'category: choose one of the existing categories (only admins add new ones).';

/** Every category by path, with how many items are filed under it directly. */
export async function listManagedCategories(db: Reader): Promise<ManagedCategory[]> {
  const result = await db.execute<{
    id: number;
    name: string;
    parent_id: number | null;
    path: string;
    item_count: number;
  }>(sql`
    SELECT c.id, c.name, c.parent_id,
      coalesce(parent.name || '/', '') || c.name AS path,
      (SELECT count(*)::int FROM item_categories ic WHERE ic.category_id = c.id) AS item_count
    FROM categories c LEFT JOIN categories parent ON parent.id = c.parent_id
    ORDER BY lower(coalesce(parent.name || '/', '') || c.name), c.id`);
  return result.rows.map((row) => ({
    id: Number(row.id),
    name: row.name,
    parentId: row.parent_id === null ? null : Number(row.parent_id),
    path: row.path,
    itemCount: Number(row.item_count),
  }));
}

async function readCategory(db: Reader, id: number): Promise<ManagedCategory> {
  const found = (await listManagedCategories(db)).find((category) => category.id === id);
  if (!found) throw new AppError('not_found', 'There is no category with this id.');
  return found;
}

const taken = () => new AppError('conflict', 'name: a category with this name is already there.');

/**
 * Runs a change to the categories and moves the catalog version, so `/v1` categories and the
 * item pages show it at once (docs/catalog.md, "Caches and versions").
 */
async function changeCategories<T>(
  deps: CategoriesDeps,
  run: (tx: Transaction) => Promise<T>,
): Promise<T> {
  try {
    const result = await withTransaction(deps.database, async ({ tx }) => {
      const value = await run(tx);
      await tx.execute(sql`SELECT sticky_catalog_version_bump()`);
      return value;
    });
    deps.services?.versions.noteCommittedChange();
    return result;
  } catch (error) {
    if (isUniqueViolation(error)) throw taken();
    throw error;
  }
}

/** An admin adds a category, top-level or under a top-level one. */
export async function createCategory(
  deps: CategoriesDeps,
  actor: Actor,
  input: { name: string; parentId?: number },
): Promise<ManagedCategory> {
  const nameEncoded = encodeCategoryName(input.name);
  if (nameEncoded === '') {
    throw new AppError('bad_request', 'name: use letters or digits in a category name.');
  }
  return changeCategories(deps, async (tx) => {
    if (input.parentId !== undefined) {
      const [parent] = await tx
        .select({ parentId: categories.parentId })
        .from(categories)
        .where(eq(categories.id, input.parentId))
        .limit(1);
      if (!parent) throw new AppError('bad_request', 'parentId: there is no such category.');
      if (parent.parentId !== null) {
        throw new AppError('bad_request', 'parentId: a subcategory cannot have its own.');
      }
    }
    const [row] = await tx
      .insert(categories)
      .values({ name: input.name, nameEncoded, parentId: input.parentId ?? null })
      .returning({ id: categories.id });
    const category = await readCategory(tx, row!.id);
    await recordAuditEvent(tx, actor, { action: 'category.create', target: category.path });
    return category;
  });
}

/** An admin renames a category; its items stay filed under it. */
export async function renameCategory(
  deps: CategoriesDeps,
  actor: Actor,
  id: number,
  name: string,
): Promise<ManagedCategory> {
  const nameEncoded = encodeCategoryName(name);
  if (nameEncoded === '') {
    throw new AppError('bad_request', 'name: use letters or digits in a category name.');
  }
  return changeCategories(deps, async (tx) => {
    const before = await readCategory(tx, id);
    await tx.update(categories).set({ name, nameEncoded }).where(eq(categories.id, id));
    const after = await readCategory(tx, id);
    await recordAuditEvent(tx, actor, {
      action: 'category.rename',
      target: after.path,
      detail: `was ${before.path}`,
    });
    return after;
  });
}

/** An admin deletes a category and its subcategories; their items stay, uncategorized. */
export async function deleteCategory(
  deps: CategoriesDeps,
  actor: Actor,
  id: number,
): Promise<void> {
  await changeCategories(deps, async (tx) => {
    const category = await readCategory(tx, id);
    await tx.delete(categories).where(or(eq(categories.id, id), eq(categories.parentId, id)));
    await recordAuditEvent(tx, actor, { action: 'category.delete', target: category.path });
  });
}
