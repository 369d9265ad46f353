import type { DatabaseHandle } from '../../db/client.ts';
import type { CatalogVersions } from './versioned-cache.ts';

/**
 * What a writer takes to tell its own app's caches of a change it committed (read your writes):
 * `app.deps` satisfies it. Writers outside any app (the CLI) leave it out; other processes hear
 * of the change by notification.
 */
export interface CommitNotice {
  services?: { versions: Pick<VersionWatch, 'noteCommittedChange'> };
}

/** The catalog's versions, kept in memory from their notifications while listening. */
export interface VersionWatch {
  read: () => Promise<CatalogVersions>;
  /**
   * This process just committed a change: the next read asks the tables instead of waiting
   * for the notification, so a person sees what they just did (read your writes).
   */
  noteCommittedChange: () => void;
  /** Stops listening (the app is closing). */
  close: () => void;
}

const channels = {
  catalog: 'sticky_catalog_version',
  popularity: 'sticky_popularity_version',
} as const;

type VersionName = keyof typeof channels;

const toNumber = (value: string | null | undefined) =>
  value === null || value === undefined ? undefined : Number(value);

/**
 * Keeps catalog_version and popularity_version in memory from their notifications
 * (migrations 0007 and 0009), so a kept answer costs no database round trip. Until the
 * listener is connected, and whenever its connection is lost (notifications may have been
 * missed), the versions are read from their tables instead. A notification arrives a moment
 * after its commit: for that moment a kept answer may still be served, as any reader that
 * started just before the commit would have seen it. One watch per app, started on the first
 * read (docs/catalog.md, "Caches and versions"). Every new version, and every change of this
 * process, sends catalog reads to the primary until the read replica has replayed it.
 */
export function watchCatalogVersions(database: DatabaseHandle): VersionWatch {
  const announced: Record<VersionName, number | undefined> = {
    catalog: undefined,
    popularity: undefined,
  };
  const unsubscribes: Array<() => void> = [];
  const seeByName = new Map<VersionName, (version: number) => void>();
  let isStarted = false;
  let isClosed = false;
  let isStale = false;

  const listen = (name: VersionName) => {
    let isListening = false;
    // Versions only grow: the newest seen, kept even while not listening, because one
    // announced between LISTEN and the read below may be newer than what that read saw.
    let newestSeen: number | undefined;
    const see = (version: number) => {
      // A new version: the read replica serves again once it has replayed it (read-replica.ts),
      // so nothing kept under it is made from a replica that has not.
      if (newestSeen === undefined || version > newestSeen) database.replica?.noteChange();
      newestSeen = Math.max(version, newestSeen ?? version);
      if (isListening) announced[name] = newestSeen;
    };
    seeByName.set(name, see);
    const unsubscribe = database.notifications.listen(channels[name], {
      onListening: async (query) => {
        const { rows } = await query<{ version: string }>(
          `SELECT version FROM ${name === 'catalog' ? 'catalog_version' : 'popularity_version'}`,
        );
        isListening = true;
        if (rows[0] !== undefined) see(Number(rows[0].version));
      },
      onNotification: (payload) => {
        const version = Number(payload);
        if (Number.isSafeInteger(version)) see(version);
      },
      onLost: () => {
        isListening = false;
        announced[name] = undefined;
      },
    });
    unsubscribes.push(unsubscribe);
  };

  return {
    read: async () => {
      if (!isStarted && !isClosed) {
        isStarted = true;
        listen('catalog');
        listen('popularity');
      }
      if (!isStale && announced.catalog !== undefined && announced.popularity !== undefined) {
        return { catalog: announced.catalog, popularity: announced.popularity };
      }
      isStale = false;
      // From the primary's pool, never the read replica: the versions say what is current.
      const result = await database.pool.query<{
        catalog: string | null;
        popularity: string | null;
      }>(`SELECT (SELECT version FROM catalog_version) AS catalog,
          (SELECT version FROM popularity_version) AS popularity`);
      const row = result.rows[0];
      const versions = { catalog: toNumber(row?.catalog), popularity: toNumber(row?.popularity) };
      // What the tables say is at least as new as any notification not yet delivered.
      for (const name of ['catalog', 'popularity'] as const) {
        const version = versions[name];
        if (version !== undefined) seeByName.get(name)?.(version);
      }
      return versions;
    },
    noteCommittedChange: () => {
      isStale = true;
      database.replica?.noteChange();
    },
    close: () => {
      isClosed = true;
      for (const unsubscribe of unsubscribes.splice(0)) unsubscribe();
    },
  };
}
