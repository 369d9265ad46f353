import { createHash } from 'node:crypto';
import { recordChatShare } from '../catalog/activity/item-events.ts';
import { findChatItem, normalizeChatWords } from './chat-search.ts';
import type { ChatItem } from './chat-search.ts';
import type { ChatDeps } from './integration-services.ts';
import type { PreviewState } from './signed-context.ts';

/*
 * What every platform does the same way (docs/integrations.md): the words to a preview, Shuffle
 * to the next match, Send to a share, the limits, and the texts a chat is answered with. Each
 * platform module only verifies its requests and shapes these into its own messages.
 */

export const chatTexts = {
  help: 'Find a GIF with `/sticky <words>`, for example `/sticky happy dance`. Only you see the preview: Send posts it in the channel, Shuffle shows the next match, Cancel drops it.',
  noMatch: (words: string) =>
    `No GIFs found for “${words}”. Try fewer words, or other ones (for example \`/sticky happy\`).`,
  userLimit:
    'Easy there: that is as many GIFs as one person may look for in a minute. Try again in a minute.',
  workspaceLimit:
    'This workspace has used /sticky as much as it may in a minute. Try again in a minute.',
  expired: 'This preview has expired: run /sticky again.',
  sent: 'Sent.',
  cancelled: 'Cancelled.',
  postedUsing: 'Posted using /sticky',
  notAllowed: 'Sticky may not post there: ask the admin to check the integration’s settings.',
} as const;

export type PreviewAnswer =
  | { kind: 'help' }
  | { kind: 'none'; words: string }
  | { kind: 'preview'; item: ChatItem; state: PreviewState };

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A command's words to what it answers: help, no match, or a preview of the best match. */
export async function startPreview(deps: ChatDeps, text: string): Promise<PreviewAnswer> {
  const words = normalizeChatWords(text);
  if (words === '') return { kind: 'help' };
  const found = await findChatItem(deps, words, 0);
  if (!found) return { kind: 'none', words };
  return {
    kind: 'preview',
    item: found.item,
    state: { words, index: found.index, itemId: found.item.id, issuedAt: nowSeconds() },
  };
}

/** Shuffle: the next match (the first again past the last), or none left at all. */
export async function shufflePreview(deps: ChatDeps, state: PreviewState): Promise<PreviewAnswer> {
  const found = await findChatItem(deps, state.words, state.index + 1);
  if (!found) return { kind: 'none', words: state.words };
  return {
    kind: 'preview',
    item: found.item,
    state: { ...state, index: found.index, itemId: found.item.id },
  };
}

/**
 * Send: the item the preview showed, read again through the same search so an item made
 * private, unlisted or hidden since is never posted. When the match at that place changed, the
 * preview shows the new one instead (`preview`) and nothing is posted.
 */
export async function readSendable(
  deps: ChatDeps,
  state: PreviewState,
): Promise<{ kind: 'send'; item: ChatItem } | PreviewAnswer> {
  const found = await findChatItem(deps, state.words, state.index);
  if (!found) return { kind: 'none', words: state.words };
  if (found.item.id === state.itemId) return { kind: 'send', item: found.item };
  return {
    kind: 'preview',
    item: found.item,
    state: { ...state, index: found.index, itemId: found.item.id },
  };
}

/** The text a chat is answered with when a limit was reached, else undefined. */
export function checkChatLimits(
  deps: ChatDeps,
  caller: { platform: string; workspaceId: string; userId: string },
): string | undefined {
  const reached = deps.integrations.limits.take(caller.platform, caller.workspaceId, caller.userId);
  if (reached === 'user') return chatTexts.userLimit;
  if (reached === 'workspace') return chatTexts.workspaceLimit;
  return undefined;
}

/**
 * Counts a Send as a share, as a signed-in person's copy is counted (docs/integrations.md,
 * "Shares"), under a digest of the platform's ids.
 */
export async function recordSend(
  deps: ChatDeps,
  caller: { platform: string; workspaceId: string; userId: string },
  itemId: string,
): Promise<void> {
  const actor = createHash('sha256')
    .update(`${caller.platform}\n${caller.workspaceId}\n${caller.userId}`)
    .digest('base64url')
    .slice(0, 22);
  await recordChatShare(deps, { platform: caller.platform, actor, itemId });
}
