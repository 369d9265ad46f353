import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../db/client.ts';

export interface LastRequest {
  at: string;
  isVerified: boolean;
}

export interface LastRequestLog {
  /** Notes that `platform` sent a request now, and whether its signature or token verified. */
  note: (platform: string, isVerified: boolean) => Promise<void>;
  /** The last request of each platform that sent one. */
  read: () => Promise<Map<string, LastRequest>>;
}

/** A platform's row is written at most this often while its requests keep verifying alike. */
const writeEveryMs = 5_000;

/**
 * The last request each platform sent, for /admin → Integrations (migration 0025): in the
 * database so every instance shows the same. A burst writes once per `writeEveryMs` per
 * platform and instance, and at once whenever verification changes from the last write.
 */
export function createLastRequestLog(
  database: DatabaseHandle,
  now: () => number = Date.now,
): LastRequestLog {
  const written = new Map<string, { at: number; isVerified: boolean }>();
  return {
    async note(platform, isVerified) {
      const at = now();
      const last = written.get(platform);
      if (last && last.isVerified === isVerified && at - last.at < writeEveryMs) return;
      written.set(platform, { at, isVerified });
      const time = new Date(at).toISOString();
      await database.db.execute(sql`
        INSERT INTO integration_requests (platform, last_at, is_verified, last_verified_at)
        VALUES (${platform}, ${time}::timestamptz, ${isVerified},
          ${isVerified ? time : null}::timestamptz)
        ON CONFLICT (platform) DO UPDATE SET last_at = excluded.last_at,
          is_verified = excluded.is_verified,
          last_verified_at = coalesce(excluded.last_verified_at,
            integration_requests.last_verified_at)`);
    },
    async read() {
      const result = await database.db.execute<{
        platform: string;
        last_at: string | Date;
        is_verified: boolean;
      }>(sql`SELECT platform, last_at, is_verified FROM integration_requests`);
      return new Map(
        result.rows.map((row) => [
          row.platform,
          { at: new Date(row.last_at).toISOString(), isVerified: row.is_verified },
        ]),
      );
    },
  };
}
