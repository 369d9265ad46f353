import type { DatabaseHandle } from '../../db/client.ts';
import type { ItemChange, ItemChanges } from './item-changes.ts';
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
   * for the notification, so a person sees what they just did (read your writes). An edit of
   * items' text names them (`change`): it moves no catalog_version, so the answers holding them
   * are dropped now.
   */
  noteCommittedChange: (change?: ItemChange) => void;
  /** Stops listening (the app is closing). */
  close: () => void;
}

const channels = {
  catalog: 'sticky_catalog_version',
  popularity: 'sticky_popularity_version',
} as const;

type VersionName = keyof typeof channels;

/** One item's text changed (migration 0023): `<item_text_version>:<id>,…`. */
const itemTextChannel = 'sticky_item_text';

const toNumber = (value: string | null | undefined) =>
  value === null || value === undefined ? undefined : Number(value);

/**
 * Keeps catalog_version and popularity_version in memory from their notifications
 * (migrations 0007 and 0009), so a kept answer costs no database round trip, and hands each
 * item_text_version notification (migration 0023) to `itemChanges` as the items it names. Until the
 * listener is connected, and whenever its connection is lost (notifications may have been
 * missed), the versions are read from their tables instead. A notification arrives a moment
 * after its commit: for that moment a kept answer may still be served, as any reader that
 * started just before the commit would have seen it. One watch per app, started on the first
 * read (docs/catalog.md, "Caches and versions"). Every new version, and every change of this
 * process, sends catalog reads to the primary until the read replica has replayed it.
 */
export function watchCatalogVersions(
  database: DatabaseHandle,
  itemChanges: ItemChanges,
): VersionWatch {
  const announced: Record<VersionName, number | undefined> = {
    catalog: undefined,
    popularity: undefined,
  };
  const unsubscribes: Array<() => void> = [];
  const seeByName = new Map<VersionName, (version: number) => void>();
  let isStarted = false;
  let isClosed = false;
  let isStale = false;
  // item_text_version up to which every change was announced to itemChanges (the ids of each,
  // or everything), and whether its notifications are heard.
  let itemTextSeen: number | undefined;
  let isItemTextHeard = false;

  // Versions come one per commit, in commit order: the next one names what changed; a gap, or
  // a version read from the table, says only that something did (docs/catalog.md, "Caches and
  // versions").
  const seeItemText = (version: number, itemIds?: readonly string[]) => {
    if (itemTextSeen !== undefined && version <= itemTextSeen) return;
    const isNext = itemTextSeen !== undefined && version === itemTextSeen + 1;
    itemTextSeen = version;
    database.replica?.noteChange();
    itemChanges.announce(isNext && itemIds ? { itemIds } : 'everything');
  };

  const listenToItemText = () => {
    unsubscribes.push(
      database.notifications.listen(itemTextChannel, {
        onListening: async (query) => {
          const { rows } = await query<{ version: string }>(
            'SELECT version FROM item_text_version',
          );
          isItemTextHeard = true;
          if (rows[0] !== undefined) seeItemText(Number(rows[0].version));
        },
        onNotification: (payload) => {
          const [version, ids = ''] = payload.split(':');
          const number = Number(version);
          if (!Number.isSafeInteger(number)) itemChanges.announce('everything');
          else seeItemText(number, ids === '' ? [] : ids.split(','));
        },
        onLost: () => {
          isItemTextHeard = false;
          itemChanges.announce('everything');
        },
      }),
    );
  };

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
        listenToItemText();
      }
      if (
        !isStale &&
        isItemTextHeard &&
        announced.catalog !== undefined &&
        announced.popularity !== undefined
      ) {
        return {
          catalog: announced.catalog,
          popularity: announced.popularity,
          itemChanges: itemChanges.sequence,
        };
      }
      isStale = false;
      // From the primary's pool, never the read replica: the versions say what is current.
      const result = await database.pool.query<{
        catalog: string | null;
        popularity: string | null;
        item_text: string | null;
      }>(`SELECT (SELECT version FROM catalog_version) AS catalog,
          (SELECT version FROM popularity_version) AS popularity,
          (SELECT version FROM item_text_version) AS item_text`);
      const row = result.rows[0];
      const versions = { catalog: toNumber(row?.catalog), popularity: toNumber(row?.popularity) };
      // What the tables say is at least as new as any notification not yet delivered.
      for (const name of ['catalog', 'popularity'] as const) {
        const version = versions[name];
        if (version !== undefined) seeByName.get(name)?.(version);
      }
      // Unheard, an item's edit elsewhere is known only from its table. Heard, its notification
      // names the item and comes in order: the table must not get ahead of it (this app's own
      // edits were dropped at once, noteCommittedChange).
      const itemText = toNumber(row?.item_text);
      if (!isItemTextHeard && itemText !== undefined) seeItemText(itemText);
      return { ...versions, itemChanges: itemChanges.sequence };
    },
    noteCommittedChange: (change) => {
      isStale = true;
      database.replica?.noteChange();
      if (change) itemChanges.announce(change);
    },
    close: () => {
      isClosed = true;
      for (const unsubscribe of unsubscribes.splice(0)) unsubscribe();
    },
  };
}
