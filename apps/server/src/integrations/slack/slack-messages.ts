import type { ChatItem } from '../chat-search.ts';
import { chatTexts } from '../chat-flow.ts';
import type { PreviewAnswer } from '../chat-flow.ts';
import type { ContextBinding, ContextSigner } from '../signed-context.ts';

/** Slack's Block Kit limits: an image block's alt text and title. */
const maxTextLength = 2000;

const clip = (text: string) => [...text].slice(0, maxTextLength).join('');

/** An ephemeral text answer (only the caller sees it). */
export function slackEphemeral(text: string) {
  return { response_type: 'ephemeral' as const, text };
}

function imageBlock(item: ChatItem) {
  return {
    type: 'image',
    image_url: item.imageUrl,
    alt_text: clip(item.title),
    title: { type: 'plain_text', text: clip(item.title) },
  };
}

/**
 * What a command or a button answers: help, no match, or the preview (an image block with the
 * title, and Send, Shuffle and Cancel, each carrying its signed context as its value).
 */
export function slackAnswer(answer: PreviewAnswer, signer: ContextSigner, binding: ContextBinding) {
  if (answer.kind === 'help') return slackEphemeral(chatTexts.help);
  if (answer.kind === 'none') return slackEphemeral(chatTexts.noMatch(answer.words));
  const button = (
    text: string,
    action: 'send' | 'shuffle' | 'cancel',
    style?: 'primary' | 'danger',
  ) => ({
    type: 'button',
    text: { type: 'plain_text', text },
    action_id: `sticky_${action}`,
    value: signer.sign(binding, action, answer.state),
    ...(style ? { style } : {}),
  });
  return {
    response_type: 'ephemeral' as const,
    text: answer.item.title,
    blocks: [
      imageBlock(answer.item),
      {
        type: 'actions',
        block_id: 'sticky_preview',
        elements: [
          button('Send', 'send', 'primary'),
          button('Shuffle', 'shuffle'),
          button('Cancel', 'cancel'),
        ],
      },
    ],
  };
}

/** The post Send makes in the channel: the GIF, its link, and where it came from. */
export function slackChannelPost(item: ChatItem) {
  return {
    response_type: 'in_channel' as const,
    replace_original: false,
    text: `${item.title} ${item.url}`,
    blocks: [
      imageBlock(item),
      {
        type: 'context',
        elements: [
          {
            type: 'mrkdwn',
            text: `<${item.url}|${escapeMrkdwn(item.title)}> · ${chatTexts.postedUsing}`,
          },
        ],
      },
    ],
  };
}

/** Slack's three control characters in mrkdwn. */
function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
