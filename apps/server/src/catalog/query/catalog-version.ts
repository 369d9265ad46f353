import { catalogVersion } from '../../db/schema.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import type { CatalogDeps } from './items.ts';

/** The catalog version as last announced; undefined while not listening. */
interface VersionWatch {
  version: number | undefined;
}

const watchByDatabase = new WeakMap<DatabaseHandle, VersionWatch>();
const versionChannel = 'sticky_catalog_version';

/**
 * Keeps catalog_version in memory from its notifications (migration 0007), so a cached page
 * costs no database round trip. Until the listener is connected, and whenever its connection
 * is lost (notifications may have been missed), the version is read from the table instead.
 * A notification arrives a moment after its commit: for that moment a cached page may still be
 * served, as any reader that started just before the commit would have seen it.
 */
function watchCatalogVersion(database: DatabaseHandle): VersionWatch {
  const existing = watchByDatabase.get(database);
  if (existing) return existing;
  const state: VersionWatch = { version: undefined };
  watchByDatabase.set(database, state);
  let isListening = false;
  // Versions only grow: the newest seen, kept even while not listening, because one announced
  // between LISTEN and the read below may be newer than what that read saw.
  let newestSeen: number | undefined;
  const see = (version: number) => {
    newestSeen = Math.max(version, newestSeen ?? version);
    if (isListening) state.version = newestSeen;
  };
  database.notifications.listen(versionChannel, {
    onListening: async (client) => {
      const { rows } = await client.query<{ version: string }>(
        'SELECT version FROM catalog_version',
      );
      isListening = true;
      if (rows[0] !== undefined) see(Number(rows[0].version));
    },
    onNotification: (payload) => {
      const announced = Number(payload);
      if (Number.isSafeInteger(announced)) see(announced);
    },
    onLost: () => {
      isListening = false;
      state.version = undefined;
    },
  });
  return state;
}

/**
 * The catalog's version: what is kept in memory may be served while it has not moved.
 */
export async function readCatalogVersion(deps: CatalogDeps): Promise<number | undefined> {
  const announced = watchCatalogVersion(deps.database).version;
  if (announced !== undefined) return announced;
  const [row] = await deps.database.db
    .select({ version: catalogVersion.version })
    .from(catalogVersion);
  return row?.version;
}

/**
 * Answers kept while the catalog version they were made under is current; the least recently
 * used is dropped past `maxEntries`. One per database (tests run many apps in one process).
 */
export class VersionedCache<V> {
  private readonly entriesByDatabase = new WeakMap<
    DatabaseHandle,
    Map<string, { version: number; value: V }>
  >();

  private readonly pendingByDatabase = new WeakMap<DatabaseHandle, Map<string, Promise<V>>>();

  constructor(private readonly maxEntries: number) {}

  private entries(database: DatabaseHandle) {
    let entries = this.entriesByDatabase.get(database);
    if (!entries) {
      entries = new Map();
      this.entriesByDatabase.set(database, entries);
    }
    return entries;
  }

  get(database: DatabaseHandle, key: string, version: number | undefined): V | undefined {
    const entries = this.entries(database);
    const entry = entries.get(key);
    if (!entry || version === undefined || entry.version !== version) return undefined;
    entries.delete(key);
    entries.set(key, entry);
    return entry.value;
  }

  /**
   * The kept value, or `make`'s: made once however many ask for it at the same moment (32
   * requests for a new trending page, or a related row that takes a second to rank, share one
   * query instead of queueing 32 behind each other).
   */
  async getOrMake(
    database: DatabaseHandle,
    key: string,
    version: number | undefined,
    make: () => Promise<V>,
  ): Promise<V> {
    const kept = this.get(database, key, version);
    if (kept !== undefined) return kept;
    let pending = this.pendingByDatabase.get(database);
    if (!pending) {
      pending = new Map();
      this.pendingByDatabase.set(database, pending);
    }
    const pendingKey = `${version ?? ''}|${key}`;
    const inFlight = pending.get(pendingKey);
    if (inFlight) return inFlight;
    const made = make()
      .then((value) => {
        this.set(database, key, version, value);
        return value;
      })
      .finally(() => pending.delete(pendingKey));
    pending.set(pendingKey, made);
    return made;
  }

  /** Keeps `value` under the version read before it was made (never a newer one). */
  set(database: DatabaseHandle, key: string, version: number | undefined, value: V): void {
    if (version === undefined) return;
    const entries = this.entries(database);
    entries.delete(key);
    entries.set(key, { version, value });
    if (entries.size > this.maxEntries) entries.delete(entries.keys().next().value!);
  }
}
