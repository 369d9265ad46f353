import { randomUUID } from 'node:crypto';
import type { SessionUser } from '@sticky/contracts';
import { createSession, sessionCookieName, upsertUser } from '../auth/sessions.ts';
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
