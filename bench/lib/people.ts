import { randomBytes, randomUUID } from 'node:crypto';
import { hashToken } from '../../apps/server/src/auth/sessions.ts';
import type { BenchServer } from './server.ts';

/**
 * A person with an API token, written straight into the bench server's database (a baseline's
 * server has the same tables). `scopes`, when given, replace the token's default ones.
 */
export async function createTokenHolder(
  server: BenchServer,
  options: { scopes?: readonly string[] } = {},
): Promise<{ userId: string; secret: string }> {
  const userId = randomUUID();
  await server.database.pool.query(
    `INSERT INTO users (id, issuer, subject, email, name) VALUES ($1, 'bench', $1, $2, 'Bench')`,
    [userId, `${userId.slice(0, 8)}@bench.example`],
  );
  const secret = `sticky_${randomBytes(32).toString('base64url')}`;
  const tokenId = randomUUID();
  await server.database.pool.query(
    `INSERT INTO api_tokens (id, user_id, name, token_hash) VALUES ($1, $2, 'bench', $3)`,
    [tokenId, userId, hashToken(secret)],
  );
  if (options.scopes) {
    // Tokens have scopes since migration 0021, `upload` alone by default. A baseline from
    // before it has no such column, and its tokens may do anything.
    const { rows } = await server.database.pool.query(
      `SELECT 1 FROM information_schema.columns WHERE table_name = 'api_tokens' AND column_name = 'scopes'`,
    );
    if (rows.length > 0) {
      await server.database.pool.query('UPDATE api_tokens SET scopes = $1 WHERE id = $2', [
        options.scopes,
        tokenId,
      ]);
    }
  }
  return { userId, secret };
}
