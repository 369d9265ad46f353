import type { ItemChange, ItemChanges } from './item-changes.ts';

/**
 * The versions an answer was made under (docs/catalog.md, "Caches and versions"): undefined
 * while unknown (then nothing is kept or served).
 */
export interface CatalogVersions {
  /**
   * catalog_version: moves with every committed change to items, renditions or creators, but
   * one item's text alone (item_text_version, heard as `itemChanges`).
   */
  catalog: number | undefined;
  /** popularity_version: moves when a view, copy, download or favorite is counted. */
  popularity: number | undefined;
  /**
   * The app's item changes heard when these were read (item-changes.ts): an answer made after
   * is not kept when a change heard meanwhile touches it.
   */
  itemChanges?: number;
}

export interface VersionedCacheOptions<V = unknown> {
  /** The least recently used answer is dropped past this many. */
  maxEntries: number;
  /**
   * For answers that show popularity (trending, and the order of ties elsewhere): how long
   * one may still be served after popularity moved. Undefined: popularity never empties it.
   */
  popularityMaxAgeMs?: number;
  /** The clock (tests). */
  now?: () => number;
  /** Told of every lookup, hit or miss: the hit ratio in /metrics (docs/operations.md). */
  onLookup?: (isHit: boolean) => void;
  /**
   * The app's item changes (an edit of one item's text moves no catalog_version): without
   * `itemIdsOf` each empties the cache; with it, the answers holding a changed item go (and,
   * with `unheldMaxAgeMs`, the others a while later).
   */
  itemChanges?: ItemChanges;
  /** The items an answer shows (item JSON: its key; a trending page: its items). */
  itemIdsOf?: (value: V, key: string) => readonly string[];
  /**
   * For rankings and the pages made of them: how long an answer not holding a changed item is
   * still served after the change (the new text may make the item belong to it). Such a cache
   * is emptied by a change naming no item (the related lists were rebuilt).
   */
  unheldMaxAgeMs?: number;
  /**
   * The item changes heard when what `value` was made of was read (a page of a kept ranking:
   * the ranking's), if older than the versions it is kept under.
   */
  itemChangesOf?: (value: V) => number | undefined;
}

interface Entry<V> {
  itemIds: readonly string[] | undefined;
  /** No longer served from then (a ranking after an item change it does not hold). */
  staleAt: number;
  catalog: number;
  popularity: number | undefined;
  madeAt: number;
  value: V;
}

/**
 * Answers kept while the catalog version they were made under is current. Created per app
 * (catalog-services.ts) and emptied with it: no state outlives the app that made it.
 */
export class VersionedCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly pending = new Map<string, Promise<V>>();
  /** The keys of the answers holding each item (with `itemIdsOf`). */
  private readonly keysByItem = new Map<string, Set<string>>();
  private readonly now: () => number;

  constructor(private readonly options: VersionedCacheOptions<V>) {
    this.now = options.now ?? options.itemChanges?.now ?? (() => Date.now());
    options.itemChanges?.subscribe((change) => this.drop(change));
  }

  /** Drops what `change` may have made stale (docs/catalog.md, "Caches and versions"). */
  private drop(change: ItemChange): void {
    const { itemIdsOf, unheldMaxAgeMs } = this.options;
    const isRanking = unheldMaxAgeMs !== undefined;
    if (change === 'everything' || !itemIdsOf || (isRanking && change.itemIds.length === 0)) {
      this.clear();
      return;
    }
    for (const id of change.itemIds) {
      for (const key of [...(this.keysByItem.get(id) ?? [])]) this.remove(key);
    }
    if (!isRanking) return;
    const staleAt = this.now() + unheldMaxAgeMs;
    for (const entry of this.entries.values()) entry.staleAt = Math.min(entry.staleAt, staleAt);
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    for (const id of entry.itemIds ?? []) {
      const keys = this.keysByItem.get(id);
      keys?.delete(key);
      if (keys?.size === 0) this.keysByItem.delete(id);
    }
  }

  private isCurrent(entry: Entry<V>, versions: CatalogVersions): boolean {
    if (versions.catalog === undefined || entry.catalog !== versions.catalog) return false;
    if (this.now() >= entry.staleAt) return false;
    const maxAge = this.options.popularityMaxAgeMs;
    if (maxAge === undefined) return true;
    if (versions.popularity !== undefined && entry.popularity === versions.popularity) return true;
    return this.now() - entry.madeAt < maxAge;
  }

  get(key: string, versions: CatalogVersions): V | undefined {
    const entry = this.entries.get(key);
    const isHit = entry !== undefined && this.isCurrent(entry, versions);
    this.options.onLookup?.(isHit);
    if (!isHit) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /**
   * The kept value, or `make`'s: made once however many ask for it at the same moment (32
   * requests for a new trending page, or a related row that takes a second to rank, share one
   * query instead of queueing 32 behind each other).
   */
  async getOrMake(key: string, versions: CatalogVersions, make: () => Promise<V>): Promise<V> {
    const kept = this.get(key, versions);
    if (kept !== undefined) return kept;
    // A request after a change does not share an answer begun before it.
    const pendingKey = `${versions.catalog ?? ''}|${versions.popularity ?? ''}|${versions.itemChanges ?? ''}|${key}`;
    const inFlight = this.pending.get(pendingKey);
    if (inFlight) return inFlight;
    const startedAt = this.now();
    const made = make()
      .then((value) => {
        this.set(key, versions, value, startedAt);
        return value;
      })
      .finally(() => this.pending.delete(pendingKey));
    this.pending.set(pendingKey, made);
    return made;
  }

  /**
   * Keeps `value` under the versions read before it was made (never newer ones), unless an item
   * change heard since touches it: dropping it on that change came too early. A ranking that
   * an item change heard since does not touch is kept until the bound after that change.
   */
  set(key: string, versions: CatalogVersions, value: V, madeAt = this.now()): void {
    if (versions.catalog === undefined) return;
    const { itemChanges, itemIdsOf, unheldMaxAgeMs, itemChangesOf } = this.options;
    const itemIds = itemIdsOf?.(value, key);
    const readUnder = itemChangesOf?.(value);
    const since =
      readUnder === undefined || versions.itemChanges === undefined
        ? versions.itemChanges
        : Math.min(readUnder, versions.itemChanges);
    let staleAt = Infinity;
    if (itemChanges && since !== undefined) {
      if (itemChanges.isChangedSince(since, itemIds, unheldMaxAgeMs !== undefined)) return;
      const heardAt = itemChanges.heardAfter(since);
      if (unheldMaxAgeMs !== undefined && heardAt !== undefined) {
        staleAt = heardAt + unheldMaxAgeMs;
        if (this.now() >= staleAt) return;
      }
    }
    this.remove(key);
    this.entries.set(key, {
      itemIds,
      staleAt,
      catalog: versions.catalog,
      popularity: versions.popularity,
      madeAt,
      value,
    });
    for (const id of itemIds ?? []) {
      const keys = this.keysByItem.get(id) ?? new Set<string>();
      keys.add(key);
      this.keysByItem.set(id, keys);
    }
    if (this.entries.size > this.options.maxEntries) this.remove(this.entries.keys().next().value!);
  }

  clear(): void {
    this.entries.clear();
    this.keysByItem.clear();
  }
}
