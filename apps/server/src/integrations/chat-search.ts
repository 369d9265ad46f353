import type { GiphyItem } from '@sticky/contracts';
import { serializeItemsJson } from '../catalog/query/item-json.ts';
import type { ItemType } from '../catalog/query/items.ts';
import type { QueryDeps } from '../catalog/query/query-caches.ts';
import { searchItemIds } from '../catalog/query/search.ts';

/** What a chat shows of an item: its title, its page (which unfurls) and an image. */
export interface ChatItem {
  id: string;
  title: string;
  /** The item's page on PUBLIC_URL. */
  url: string;
  imageUrl: string;
}

/** The words of a chat command, at most this long (a Discord button's context must hold them). */
export const maxChatQueryLength = 60;

/** GIFs and stickers: animated text is drawn on demand and not listed. */
const chatTypes: readonly ItemType[] = ['gif', 'sticker'];

/** Shuffle walks this far down the matches before it starts again at the best one. */
const maxShuffleIndex = 49;

/** The words as a chat command gives them: spaces collapsed, at most `maxChatQueryLength`. */
export function normalizeChatWords(text: string): string {
  return [...text.replace(/\s+/g, ' ').trim()].slice(0, maxChatQueryLength).join('').trim();
}

/**
 * The match at `index` for `words` (docs/integrations.md, "What a chat is shown"): the web app's
 * own search (typos, ranking) over listable items at or below INTEGRATIONS_RATING, which never
 * holds a private, unlisted or hidden item. An index past the matches starts again at the
 * first. Undefined when nothing matches.
 */
export async function findChatItem(
  deps: QueryDeps,
  words: string,
  index: number,
): Promise<{ item: ChatItem; index: number } | undefined> {
  const rating = deps.config.integrations.rating;
  const search = (offset: number) =>
    searchItemIds(deps, { q: words, types: chatTypes, rating, limit: 1, offset });
  let at = Math.min(Math.max(0, index), maxShuffleIndex);
  let page = await search(at);
  if (page.rows.length === 0 && at > 0 && page.totalCount > 0) {
    at = 0;
    page = await search(0);
  }
  const [id] = page.rows;
  if (!id) return undefined;
  const [item] = JSON.parse((await serializeItemsJson(deps, [id])).json) as GiphyItem[];
  if (!item) return undefined;
  return { item: toChatItem(item, words), index: at };
}

function toChatItem(item: GiphyItem, words: string): ChatItem {
  const image = item.images.downsized ?? item.images.fixed_width ?? item.images.original;
  return {
    id: item.id,
    title: item.title.trim() || words,
    url: item.url,
    imageUrl: image.url ?? item.images.original.url ?? '',
  };
}
