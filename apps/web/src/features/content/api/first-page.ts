import { describeTrendingRequest, firstPageElementId } from '@sticky/contracts/first-screen';
import { takeCarriedData } from '@/lib/carried-data.ts';
import type { ContentListResult } from '../content-types.ts';
import { normalizeListAnswer } from './normalize-items.ts';

/**
 * The first page of trending that the HTML of `/` carries for a signed-in person (docs/web.md,
 * "First page"), when it answers `request` exactly: the same type, limit, offset and rating the
 * app would ask `/v1` for. The page's first trending request takes it out of the document
 * whether or not it matches, so it is used once, at the start, and never goes stale: any later
 * request asks the server. Anything unreadable is ignored and the server asked.
 */
export function takeFirstPage(request: {
  type: string;
  limit: number;
  offset: number;
  rating: string;
}): ContentListResult | null {
  const carried = takeCarriedData(
    firstPageElementId,
    (element) => element.getAttribute('data-request') === describeTrendingRequest(request),
  );
  try {
    // Throws on items that are not objects (`data: [null]`).
    return normalizeListAnswer(carried);
  } catch {
    return null;
  }
}
