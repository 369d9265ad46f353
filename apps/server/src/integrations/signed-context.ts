import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a preview's buttons do: post the item, show the next match, or drop the preview. */
export type PreviewAction = 'send' | 'shuffle' | 'cancel';

/** Where a preview stands: the words, which match it shows, when it was first shown. */
export interface PreviewState {
  words: string;
  index: number;
  /** The item shown, so that Send posts what the person saw. */
  itemId: string;
  /** Seconds since the epoch. */
  issuedAt: number;
}

/**
 * What a context is bound to besides its own fields: the platform and the person it was shown
 * to (and, for Mattermost, the response_url it may post to). A context copied to another
 * person or platform does not verify.
 */
export interface ContextBinding {
  platform: string;
  userId: string;
  extra?: string;
}

const actionCodes: Record<PreviewAction, string> = { send: 's', shuffle: 'h', cancel: 'c' };
const actionOf = (code: string) =>
  (Object.keys(actionCodes) as PreviewAction[]).find((action) => actionCodes[action] === code);

/** A preview's buttons work for an hour; Slack's response_url lasts 30 minutes. */
export const contextMaxAgeSeconds = 60 * 60;

/** Characters of the MAC kept (base64url of 96 bits): a Discord custom_id holds 100. */
const macLength = 16;

export interface ContextSigner {
  sign: (binding: ContextBinding, action: PreviewAction, state: PreviewState) => string;
  /** The action and state, or undefined when the context is forged, altered, foreign or old. */
  verify: (
    binding: ContextBinding,
    context: string,
    nowSeconds?: number,
  ) => { action: PreviewAction; state: PreviewState } | undefined;
}

/**
 * Signs a preview's button context (docs/integrations.md, "Buttons"): a platform posts back
 * what the button carried, and anyone who can reach the endpoint could post a context of their
 * own. The context is `mac:action:index:issuedAt:itemId:words` with an HMAC-SHA256 (keyed with
 * a key derived from the server's secret) over it and its binding.
 */
export function createContextSigner(serverSecret: string): ContextSigner {
  const key = createHmac('sha256', serverSecret).update('sticky/integrations/context').digest();
  const macOf = (binding: ContextBinding, body: string) =>
    createHmac('sha256', key)
      .update([binding.platform, binding.userId, binding.extra ?? '', body].join('\n'))
      .digest('base64url')
      .slice(0, macLength);
  return {
    sign(binding, action, state) {
      const body = [
        actionCodes[action],
        state.index.toString(36),
        state.issuedAt.toString(36),
        state.itemId,
        state.words,
      ].join(':');
      return `${macOf(binding, body)}:${body}`;
    },
    verify(binding, context, nowSeconds = Math.floor(Date.now() / 1000)) {
      if (context.length > 2000) return undefined;
      const at = context.indexOf(':');
      if (at !== macLength) return undefined;
      const mac = Buffer.from(context.slice(0, at));
      const body = context.slice(at + 1);
      const expected = Buffer.from(macOf(binding, body));
      if (mac.length !== expected.length || !timingSafeEqual(mac, expected)) return undefined;
      const [code = '', index = '', issuedAt = '', itemId = '', ...words] = body.split(':');
      const action = actionOf(code);
      const state = {
        words: words.join(':'),
        index: parseInt(index, 36),
        issuedAt: parseInt(issuedAt, 36),
        itemId,
      };
      if (!action || !Number.isSafeInteger(state.index) || !Number.isSafeInteger(state.issuedAt))
        return undefined;
      if (nowSeconds - state.issuedAt > contextMaxAgeSeconds) return undefined;
      return { action, state };
    },
  };
}
