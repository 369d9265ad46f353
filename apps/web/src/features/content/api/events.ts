import { apiPost } from '@/lib/api-client.ts';
import { getContentClient } from '../content-client.ts';

export type ItemEventType = 'view' | 'copy' | 'download';

/**
 * Tells our server an item was viewed, copied or downloaded (its trending signal). Only our
 * own catalog counts them; GIPHY items are not ours to count. Failures are ignored: this must
 * never get in the user's way.
 */
export async function recordItemEvent(type: ItemEventType, id: string): Promise<void> {
  try {
    const { config } = await getContentClient();
    if (config.source !== 'local') return;
    await apiPost('/api/events', { type, id }, null, { keepalive: true });
  } catch {
    // ignored on purpose
  }
}
