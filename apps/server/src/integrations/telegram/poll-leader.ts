import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { DatabaseHandle } from '../../db/client.ts';

/**
 * Which instance polls the bot (Telegram hands each update to one `getUpdates` consumer and
 * answers a second one 409): the one holding a PostgreSQL session advisory lock, on a connection
 * of its own. The lock lives as long as that session, so an instance that is killed or loses its
 * database lets go at once, and PostgreSQL, not a timer, says so. The others try again when the
 * leader says it let go (NOTIFY) and every `retryMs` otherwise (a killed leader says nothing).
 * docs/integrations.md, "Telegram".
 */
export interface PollLeader {
  /** Resolves true once this instance holds the lock, false if `signal` aborts first. */
  waitForLeadership(signal: AbortSignal): Promise<boolean>;
  /** Whether the lock's connection still answers (its session, so the lock, is alive). */
  isStillLeader(): Promise<boolean>;
  /** Lets go of the lock and tells the others. */
  release(): Promise<void>;
}

const channel = 'sticky_telegram_leader';

/** The lock's key: one per bot, so two bots on one database each get a poller. */
export function leaderLockKey(botToken: string): string {
  const botId = botToken.split(':')[0] ?? '';
  return createHash('sha256')
    .update(`sticky telegram poller ${botId}`)
    .digest()
    .readBigInt64BE(0)
    .toString();
}

export function createPollLeader(deps: {
  database: DatabaseHandle;
  botToken: string;
  /** How often a waiting instance tries the lock without being told (a killed leader). */
  retryMs?: number;
}): PollLeader {
  const key = leaderLockKey(deps.botToken);
  const retryMs = deps.retryMs ?? 5_000;
  let client: pg.PoolClient | undefined;
  let isHeld = false;
  let wake: (() => void) | undefined;
  const unlisten = deps.database.notifications.listen(channel, {
    onListening: async () => wake?.(),
    onNotification: () => wake?.(),
    onLost: () => {},
  });

  const dropClient = () => {
    const lost = client;
    client = undefined;
    isHeld = false;
    // Destroyed, not returned to the pool: its session (and any lock of it) ends with it.
    lost?.release(true);
  };

  const tryLock = async (): Promise<boolean> => {
    try {
      if (!client) {
        const next = await deps.database.pool.connect();
        next.on('error', () => {
          if (client === next) dropClient();
        });
        client = next;
      }
      const result = await client.query<{ locked: boolean }>(
        'SELECT pg_try_advisory_lock($1::bigint) AS locked',
        [key],
      );
      isHeld = result.rows[0]?.locked === true;
      return isHeld;
    } catch {
      dropClient();
      return false;
    }
  };

  return {
    async waitForLeadership(signal) {
      while (!signal.aborted) {
        if (await tryLock()) return true;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, retryMs);
          function done() {
            clearTimeout(timer);
            signal.removeEventListener('abort', done);
            wake = undefined;
            resolve();
          }
          wake = done;
          signal.addEventListener('abort', done, { once: true });
        });
      }
      return false;
    },
    async isStillLeader() {
      if (!client || !isHeld) return false;
      try {
        await client.query('SELECT 1');
        return true;
      } catch {
        dropClient();
        return false;
      }
    },
    async release() {
      unlisten();
      wake?.();
      const held = client;
      if (!held) return;
      const wasHeld = isHeld;
      try {
        if (wasHeld) await held.query('SELECT pg_advisory_unlock($1::bigint)', [key]);
      } catch {
        // Ending the session below lets go of it anyway.
      }
      dropClient();
      // On another connection: the others try now rather than at their next retry.
      if (wasHeld) await deps.database.pool.query(`NOTIFY ${channel}`).catch(() => {});
    },
  };
}
