/**
 * A change that leaves catalog_version where it was (docs/catalog.md, "Caches and versions"):
 * what these items say changed (their title, tags, alt text…), so answers showing them and
 * every ranking are stale, but not which lists hold them; `itemIds` empty: only rankings changed
 * (the related lists were rebuilt). `everything`: a change may have been missed.
 */
export type ItemChange = { itemIds: readonly string[] } | 'everything';

/** Changes remembered for answers still being made: past this many, such an answer is not kept. */
const changesRemembered = 256;

/**
 * The item changes this app heard of, numbered in the order heard, for the caches that drop what
 * they touch (versioned-cache.ts). One per app (query-caches.ts), fed by its version watch.
 */
export class ItemChanges {
  private heard = 0;
  private readonly recent: Array<{ sequence: number; change: ItemChange; at: number }> = [];
  private readonly listeners = new Set<(change: ItemChange) => void>();

  /** The clock of the caches hearing these, unless told another (tests). */
  constructor(readonly now: () => number = () => Date.now()) {}

  /** The number of the last change heard: an answer made from now on is made after it. */
  get sequence(): number {
    return this.heard;
  }

  /** `onChange` hears every change from now on; the function returned stops it. */
  subscribe(onChange: (change: ItemChange) => void): () => void {
    this.listeners.add(onChange);
    return () => this.listeners.delete(onChange);
  }

  announce(change: ItemChange): void {
    this.heard += 1;
    this.recent.push({ sequence: this.heard, change, at: this.now() });
    if (this.recent.length > changesRemembered) this.recent.shift();
    for (const onChange of this.listeners) onChange(change);
  }

  /**
   * Whether a change heard after `since` may make an answer made before it stale: one naming
   * any of `itemIds` (undefined: the answer is a ranking, which any change may reorder), one
   * naming no item when `isRanking` (related lists were rebuilt), or one too old to be
   * remembered.
   */
  isChangedSince(since: number, itemIds?: readonly string[], isRanking = false): boolean {
    if (since >= this.heard) return false;
    const oldest = this.recent[0]?.sequence;
    if (oldest === undefined || since + 1 < oldest) return true;
    const held = itemIds === undefined ? undefined : new Set(itemIds);
    for (const { sequence, change } of this.recent) {
      if (sequence <= since) continue;
      if (change === 'everything' || held === undefined) return true;
      if (isRanking && change.itemIds.length === 0) return true;
      if (change.itemIds.some((id) => held.has(id))) return true;
    }
    return false;
  }

  /**
   * When the first change after `since` was heard: undefined if none was; -Infinity if it is
   * no longer remembered.
   */
  heardAfter(since: number): number | undefined {
    if (since >= this.heard) return undefined;
    const first = this.recent.find(({ sequence }) => sequence > since);
    return first && first.sequence === since + 1 ? first.at : -Infinity;
  }
}
