import { randomBytes, randomUUID } from 'node:crypto';
import type { SessionUser } from '@sticky/contracts';
import type pg from 'pg';
import { createSession, hashToken, sessionCookieName, upsertUser } from '../auth/sessions.ts';
import type { TestApp } from './app.ts';

export interface SignedIn {
  user: SessionUser;
  /** `Cookie` header value carrying the session. */
  cookie: string;
}

/**
 * A real user and session in the test database, without going through the sign-in flow.
 * Use it in tests that are about something else than signing in.
 */
export async function signInAs(
  testApp: TestApp,
  claims: { email?: string; name?: string } = {},
): Promise<SignedIn> {
  const subject = randomUUID();
  const user = await upsertUser(testApp.database.db, testApp.config, {
    issuer: 'test',
    subject,
    email: claims.email ?? `${subject.slice(0, 8)}@example.com`,
    name: claims.name ?? 'Test User',
    picture: null,
  });
  const token = await createSession(testApp.database.db, user.id);
  return { user, cookie: `${sessionCookieName(testApp.config)}=${token}` };
}

/**
 * A person with a session (the browser's routes) and an API token (uploads), written with plain
 * SQL on `pool` as the server writes them: for tests whose servers run in processes of their
 * own, over http (so the cookie is `sticky_session`).
 */
export async function insertPersonWithCredentials(
  pool: pg.Pool,
  person: { email: string; name: string },
): Promise<{ cookie: string; bearer: { authorization: string } }> {
  const userId = randomUUID();
  await pool.query(
    `INSERT INTO users (id, issuer, subject, email, name) VALUES ($1, 'test', $1, $2, $3)`,
    [userId, person.email, person.name],
  );
  const session = randomBytes(32).toString('base64url');
  await pool.query(
    `INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 day')`,
    [hashToken(session), userId],
  );
  const secret = `sticky_${randomBytes(32).toString('base64url')}`;
  // Its uploads are public, so they are listed and searched as these tests expect (a token's
  // default is unlisted otherwise: docs/uploads.md, "Visibility").
  await pool.query(
    `INSERT INTO api_tokens (id, user_id, name, token_hash, visibility) VALUES ($1, $2, 'test', $3, 'public')`,
    [randomUUID(), userId, hashToken(secret)],
  );
  return {
    cookie: `sticky_session=${session}`,
    bearer: { authorization: `Bearer ${secret}` },
  };
}
