import { randomBytes, randomUUID } from 'node:crypto';
import type { ApiToken, ItemVisibility, SessionUser } from '@sticky/contracts';
import { and, count, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { AppConfig } from '../config/env.ts';
import type { Database } from '../db/client.ts';
import { apiTokens, users } from '../db/schema.ts';
import { AppError } from '../lib/app-error.ts';
import { isEmailAllowed } from './allow-list.ts';
import { toSessionUser } from './roles.ts';
import { hashToken, personColumns } from './sessions.ts';

/** Tokens one person may hold at once. */
export const MAX_TOKENS_PER_PERSON = 20;
/** `last_used_at` is written at most this often per token, not on every request. */
const TOUCH_INTERVAL_MS = 60 * 1000;
/** `sticky_` and 32 random bytes: recognisable in a leak scan, impossible to guess. */
const TOKEN_PATTERN = /^sticky_[A-Za-z0-9_-]{43}$/;

function toApiToken(row: typeof apiTokens.$inferSelect): ApiToken {
  return {
    id: row.id,
    name: row.name,
    visibility: row.visibility,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

/**
 * Makes a personal API token (docs/security.md, "API tokens"): the secret is answered once and
 * only its sha256 is kept, like session tokens.
 */
export async function createApiToken(
  db: Database,
  userId: string,
  name: string,
  visibility: ItemVisibility,
): Promise<{ token: ApiToken; secret: string }> {
  const [held] = await db
    .select({ n: count() })
    .from(apiTokens)
    .where(eq(apiTokens.userId, userId));
  if ((held?.n ?? 0) >= MAX_TOKENS_PER_PERSON) {
    throw new AppError(
      'conflict',
      `You have ${MAX_TOKENS_PER_PERSON} tokens already: revoke one you no longer use first.`,
    );
  }
  const secret = `sticky_${randomBytes(32).toString('base64url')}`;
  const [row] = await db
    .insert(apiTokens)
    .values({
      id: randomUUID(),
      userId,
      name: name.trim(),
      tokenHash: hashToken(secret),
      visibility,
    })
    .returning();
  return { token: toApiToken(row!), secret };
}

export async function listApiTokens(db: Database, userId: string): Promise<ApiToken[]> {
  const rows = await db
    .select()
    .from(apiTokens)
    .where(eq(apiTokens.userId, userId))
    .orderBy(desc(apiTokens.createdAt));
  return rows.map(toApiToken);
}

/** Revokes one of the person's tokens; another person's is as unknown as a made-up id. */
export async function deleteApiToken(db: Database, userId: string, id: string): Promise<void> {
  const deleted = await db
    .delete(apiTokens)
    .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, userId)))
    .returning({ id: apiTokens.id });
  if (deleted.length === 0) throw new AppError('not_found', 'You have no token with this id.');
}

/**
 * The visibility an upload through this token gets when it names none (docs/uploads.md,
 * "Visibility"); undefined for a secret that is no token.
 */
export async function findTokenVisibility(
  db: Database,
  secret: string,
): Promise<ItemVisibility | undefined> {
  if (!TOKEN_PATTERN.test(secret)) return undefined;
  const [row] = await db
    .select({ visibility: apiTokens.visibility })
    .from(apiTokens)
    .where(eq(apiTokens.tokenHash, hashToken(secret)))
    .limit(1);
  return row?.visibility;
}

/**
 * The person a Bearer token stands for, or null (unknown, revoked, or the person is no longer
 * on the allow-list). Their roles are read now, as for a session.
 */
export async function findTokenUser(
  db: Database,
  config: AppConfig,
  secret: string,
): Promise<SessionUser | null> {
  if (!TOKEN_PATTERN.test(secret)) return null;
  const tokenHash = hashToken(secret);
  const [row] = await db
    .select({ tokenId: apiTokens.id, ...personColumns })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(eq(apiTokens.tokenHash, tokenHash))
    .limit(1);
  if (!row || !isEmailAllowed(row.email, config)) return null;
  await db
    .update(apiTokens)
    .set({ lastUsedAt: new Date() })
    .where(
      and(
        eq(apiTokens.id, row.tokenId),
        or(
          isNull(apiTokens.lastUsedAt),
          lt(apiTokens.lastUsedAt, sql`now() - make_interval(secs => ${TOUCH_INTERVAL_MS / 1000})`),
        ),
      ),
    );
  return toSessionUser(config, row);
}
