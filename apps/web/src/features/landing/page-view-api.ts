import type { PageViewRequest } from '@sticky/contracts';
import { apiPost } from '@/lib/api-client.ts';

/**
 * `POST /api/analytics/pageview`: counts one view of a page. Sent without cookies (the count
 * is anonymous by design) and allowed to finish after the page is gone.
 */
export function postPageView(path: PageViewRequest['path']): Promise<void> {
  return apiPost<void>('/api/analytics/pageview', { path }, null, {
    credentials: 'omit',
    keepalive: true,
  });
}
