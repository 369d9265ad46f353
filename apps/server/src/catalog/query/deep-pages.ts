import pLimit from 'p-limit';
import { AppError } from '../../lib/app-error.ts';

/**
 * Rankings past what is kept (a search page past the first 250 ids, related past 60) read
 * every match again, and nothing keeps them. A few run at once, per app; the rest wait their
 * turn without holding a database connection, so a flood of deep pages leaves the pool to
 * /readyz and to everyone else's first pages (docs/catalog.md, "Search").
 */
export interface DeepPageGate {
  run: <T>(work: () => Promise<T>) => Promise<T>;
  /** Deep rankings running now and waiting: what a test or a metric reads. */
  readonly activeCount: number;
  readonly pendingCount: number;
}

export function createDeepPageGate(options: { concurrency: number; maxWaiting: number }) {
  const limit = pLimit(options.concurrency);
  const gate: DeepPageGate = {
    run: (work) => {
      if (limit.pendingCount >= options.maxWaiting) {
        return Promise.reject(
          new AppError(
            'unavailable',
            'Too many requests for pages this deep right now; try again in a moment.',
          ),
        );
      }
      return limit(work);
    },
    get activeCount() {
      return limit.activeCount;
    },
    get pendingCount() {
      return limit.pendingCount;
    },
  };
  return gate;
}
