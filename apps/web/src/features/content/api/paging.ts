import type { ContentListResult, ContentPage } from '../content-types.ts';
import { contentLimits } from '../content-types.ts';

/**
 * Where the next page starts, from the server's pagination: nothing after an empty page, at
 * `total_count`, or past GIPHY's largest offset. Without `total_count` a short page ends it.
 */
export function toContentPage(
  result: Pick<ContentListResult, 'data' | 'pagination'>,
  requestedOffset: number,
  limit: number,
): ContentPage {
  const items = result.data ?? [];
  const pagination = result.pagination as Partial<ContentListResult['pagination']> | undefined;
  const offset = pagination?.offset ?? requestedOffset;
  const count = pagination?.count ?? items.length;
  const next = offset + count;
  const total = pagination?.total_count;
  const isDone =
    count === 0 ||
    items.length === 0 ||
    (typeof total === 'number' ? next >= total : items.length < limit) ||
    next > contentLimits.maxOffset;
  return { items, nextOffset: isDone ? undefined : next };
}

export const getNextOffset = (page: ContentPage) => page.nextOffset;
