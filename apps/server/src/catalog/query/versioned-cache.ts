/**
 * The versions an answer was made under (docs/catalog.md, "Caches and versions"): undefined
 * while unknown (then nothing is kept or served).
 */
export interface CatalogVersions {
  /** catalog_version: moves with every committed change to items, renditions or creators. */
  catalog: number | undefined;
  /** popularity_version: moves when a view, copy, download or favorite is counted. */
  popularity: number | undefined;
}

export interface VersionedCacheOptions {
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
}

interface Entry<V> {
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
  private readonly now: () => number;

  constructor(private readonly options: VersionedCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  private isCurrent(entry: Entry<V>, versions: CatalogVersions): boolean {
    if (versions.catalog === undefined || entry.catalog !== versions.catalog) return false;
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
    const pendingKey = `${versions.catalog ?? ''}|${versions.popularity ?? ''}|${key}`;
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

  /** Keeps `value` under the versions read before it was made (never newer ones). */
  set(key: string, versions: CatalogVersions, value: V, madeAt = this.now()): void {
    if (versions.catalog === undefined) return;
    this.entries.delete(key);
    this.entries.set(key, {
      catalog: versions.catalog,
      popularity: versions.popularity,
      madeAt,
      value,
    });
    if (this.entries.size > this.options.maxEntries) {
      this.entries.delete(this.entries.keys().next().value!);
    }
  }

  clear(): void {
    this.entries.clear();
  }
}
