import { randomBytes, randomUUID } from 'node:crypto';
import type {
  ApiToken,
  CreateTokenRequest,
  ItemVisibility,
  SessionUser,
  TokenScope,
} from '@sticky/contracts';
import { tokenScopeSchema } from '@sticky/contracts';
import { and, count, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
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
const DAY_MS = 24 * 60 * 60 * 1000;

/** The stored scopes that are still scopes, in the contracts' order. */
function readScopes(stored: readonly string[]): TokenScope[] {
  return tokenScopeSchema.options.filter((scope) => stored.includes(scope));
}

function toApiToken(row: typeof apiTokens.$inferSelect): ApiToken {
  return {
    id: row.id,
    name: row.name,
    visibility: row.visibility,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    scopes: readScopes(row.scopes),
    expiresAt: row.expiresAt.toISOString(),
  };
}

/**
 * Makes a personal API token (docs/security.md, "API tokens"): the secret is answered once and
 * only its sha256 is kept, like session tokens. It may do what its scopes say, until it expires;
 * only an admin may give it the `admin` scope.
 */
export async function createApiToken(
  db: Database,
  owner: Pick<SessionUser, 'id' | 'isAdmin'>,
  request: CreateTokenRequest,
): Promise<{ token: ApiToken; secret: string }> {
  const userId = owner.id;
  const { name } = request;
  if (request.scopes.includes('admin') && !owner.isAdmin) {
    throw new AppError('forbidden', 'Only an admin can make a token with the admin scope.');
  }
  // Expired tokens stay listed (their holder sees why a script stopped) but hold no place.
  const [held] = await db
    .select({ n: count() })
    .from(apiTokens)
    .where(and(eq(apiTokens.userId, userId), gt(apiTokens.expiresAt, sql`now()`)));
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
      scopes: readScopes(request.scopes),
      expiresAt: new Date(Date.now() + request.expiresInDays * DAY_MS),
      visibility: request.visibility,
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

/** Revokes every token of a person ("Revoke every token"); returns how many there were. */
export async function deleteUserApiTokens(db: Database, userId: string): Promise<number> {
  const deleted = await db
    .delete(apiTokens)
    .where(eq(apiTokens.userId, userId))
    .returning({ id: apiTokens.id });
  return deleted.length;
}

/** The person a token stands for, and what the token lets a caller do as them. */
export interface TokenHolder {
  user: SessionUser;
  scopes: TokenScope[];
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
 * on the allow-list); an expired token is refused with its own reason. Their roles are read now,
 * as for a session, and admin powers need the `admin` scope as well (docs/security.md, "API
 * tokens").
 */
export async function findTokenUser(
  db: Database,
  config: AppConfig,
  secret: string,
): Promise<TokenHolder | null> {
  if (!TOKEN_PATTERN.test(secret)) return null;
  const tokenHash = hashToken(secret);
  const [row] = await db
    .select({
      tokenId: apiTokens.id,
      scopes: apiTokens.scopes,
      expiresAt: apiTokens.expiresAt,
      ...personColumns,
    })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(eq(apiTokens.tokenHash, tokenHash))
    .limit(1);
  if (!row || !isEmailAllowed(row.email, config)) return null;
  if (row.expiresAt.getTime() <= Date.now()) {
    throw new AppError(
      'unauthorized',
      `This API token expired on ${row.expiresAt.toISOString().slice(0, 10)}: make a new one on /settings.`,
    );
  }
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
  const scopes = readScopes(row.scopes);
  const user = toSessionUser(config, row);
  return { user: { ...user, isAdmin: user.isAdmin && scopes.includes('admin') }, scopes };
}
