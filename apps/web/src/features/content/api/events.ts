import type { ItemEventRequest, ItemEventType } from '@sticky/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { apiPost } from '@/lib/api-client.ts';
import { getContentClient } from '../content-client.ts';

/**
 * Tells our server an item was viewed, copied or downloaded (its trending signal). Only our
 * own catalog counts them; GIPHY items are not ours to count. Failures are ignored: this must
 * never get in the user's way.
 */
export async function recordItemEvent(
  queryClient: QueryClient,
  type: ItemEventType,
  id: string,
): Promise<void> {
  try {
    const { config } = await getContentClient(queryClient);
    if (config.source !== 'local') return;
    const event: ItemEventRequest = { type, id };
    await apiPost('/api/events', event, null, { keepalive: true });
  } catch {
    // ignored on purpose
  }
}
