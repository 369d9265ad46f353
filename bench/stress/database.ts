import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createSession, upsertUser } from '../../apps/server/src/auth/sessions.ts';
import { connectDatabase } from '../../apps/server/src/db/client.ts';
import type { DatabaseHandle } from '../../apps/server/src/db/client.ts';

/**
 * A connection to the embedded PostgreSQL a running server (or CLI) started in `dataDir`:
 * its port is in the postmaster's pid file, its password in DATA_DIR/pg-password.
 */
export function connectToEmbedded(dataDir: string): DatabaseHandle {
  const port = fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[3];
  const password = fs.readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim();
  return connectDatabase(`postgres://sticky:${password}@127.0.0.1:${port}/sticky`, { max: 4 });
}

/**
 * `count` real accounts with a real session each (the rows sign-in writes), so each load
 * client is a different signed-in person. Returns their `Cookie` header values.
 */
export async function createSignedInUsers(
  database: DatabaseHandle,
  count: number,
  label: string,
): Promise<string[]> {
  const cookies: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const subject = randomUUID();
    const user = await upsertUser(database.db, {
      issuer: 'stress',
      subject,
      email: `${label}-${index}-${subject.slice(0, 6)}@stress.example`,
      name: `Stress ${label} ${index}`,
      picture: null,
    });
    cookies.push(`sticky_session=${await createSession(database.db, user.id)}`);
  }
  return cookies;
}
