import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { SessionUser } from '@sticky/contracts';
import type { AppConfig } from '../config/env.ts';
import type { Database } from '../db/client.ts';
import { sessions, users } from '../db/schema.ts';
import { isEmailAllowed } from './allow-list.ts';
import { toSessionUser } from './roles.ts';

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** Sliding expiry is written at most this often per session, not on every request. */
const SESSION_TOUCH_INTERVAL_MS = 60 * 60 * 1000;

export function sessionCookieName(config: AppConfig): string {
  return config.isHttps ? '__Host-sticky_session' : 'sticky_session';
}

export function sessionCookieOptions(config: AppConfig) {
  return {
    httpOnly: true,
    sameSite: 'lax' as const,
    path: '/',
    secure: config.isHttps,
    maxAge: SESSION_TTL_MS / 1000,
  };
}

/** What a person's roles are read from (auth/roles.ts), as sessions and tokens select it. */
export const personColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  picture: users.picture,
  groups: users.groups,
  groupsReadAt: users.groupsReadAt,
};

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A brand-new session (never reuses one: no fixation). Returns the token for the cookie. */
export async function createSession(db: Database, userId: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.insert(sessions).values({
    tokenHash: hashToken(token),
    userId,
    expiresAt: new Date(Date.now() + SESSION_TTL_MS),
  });
  return token;
}

export async function findSessionUser(
  db: Database,
  config: AppConfig,
  token: string,
): Promise<SessionUser | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const tokenHash = hashToken(token);
  const [row] = await db
    .select({
      ...personColumns,
      lastSeenAt: sessions.lastSeenAt,
      createdAt: sessions.createdAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, new Date())))
    .limit(1);
  if (!row) return null;
  // An absolute end on top of the sliding one: a stolen token used now and then still dies,
  // and an email taken off the allow-list loses access at once (docs/security.md, "Sessions").
  const endsAt = row.createdAt.getTime() + config.sessionMaxAgeMs;
  if (Date.now() >= endsAt || !isEmailAllowed(row.email, config)) {
    await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
    return null;
  }
  if (Date.now() - row.lastSeenAt.getTime() > SESSION_TOUCH_INTERVAL_MS) {
    const expiresAt = new Date(Math.min(Date.now() + SESSION_TTL_MS, endsAt));
    await db
      .update(sessions)
      .set({ lastSeenAt: new Date(), expiresAt })
      .where(eq(sessions.tokenHash, tokenHash));
  }
  return toSessionUser(config, row);
}

export async function deleteSession(db: Database, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, hashToken(token)));
}

/** Ends every session of a person ("Sign out everywhere"); returns how many there were. */
export async function deleteUserSessions(db: Database, userId: string): Promise<number> {
  const deleted = await db
    .delete(sessions)
    .where(eq(sessions.userId, userId))
    .returning({ tokenHash: sessions.tokenHash });
  return deleted.length;
}

export async function purgeExpiredSessions(db: Database): Promise<number> {
  const deleted = await db
    .delete(sessions)
    .where(lt(sessions.expiresAt, new Date()))
    .returning({ tokenHash: sessions.tokenHash });
  return deleted.length;
}

export interface UserClaims {
  issuer: string;
  subject: string;
  email: string;
  name: string;
  picture: string | null;
  /** OIDC groups (claim OIDC_GROUPS_CLAIM); replaced on every sign-in. */
  groups?: string[];
}

/** Creates the user on first sign-in, refreshes name, email, picture and groups afterwards. */
export async function upsertUser(
  db: Database,
  config: AppConfig,
  claims: UserClaims,
): Promise<SessionUser> {
  const groups = claims.groups ?? [];
  const [row] = await db
    .insert(users)
    .values({ id: randomUUID(), ...claims, groups })
    .onConflictDoUpdate({
      target: [users.issuer, users.subject],
      set: {
        email: claims.email,
        name: claims.name,
        picture: claims.picture,
        groups,
        groupsReadAt: sql`now()`,
        updatedAt: sql`now()`,
      },
    })
    .returning(personColumns);
  return toSessionUser(config, row!);
}
