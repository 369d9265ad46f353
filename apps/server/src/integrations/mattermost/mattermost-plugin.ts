import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { z } from 'zod';
import {
  checkChatLimits,
  chatTexts,
  readSendable,
  recordSend,
  shufflePreview,
  startPreview,
} from '../chat-flow.ts';
import type { PreviewAnswer } from '../chat-flow.ts';
import type { ChatDeps } from '../integration-services.ts';
import { keepRawBodies, readRawBody } from '../raw-body.ts';
import { isAllowedUrl, postToPlatform } from '../response-poster.ts';
import type { ContextBinding } from '../signed-context.ts';
import { mattermostEndpoints } from './mattermost-setup.ts';

export interface MattermostSettings {
  commandTokens: readonly string[];
  serverUrl: string;
}

const idSchema = z.string().min(1).max(100);

/** The fields of a slash command we read (Mattermost sends more). */
const commandSchema = z.object({
  token: z.string().max(200),
  team_id: idSchema,
  user_id: idSchema,
  text: z.string().max(4000).default(''),
  response_url: z.string().max(2000).default(''),
});

/** A button click: Mattermost posts the context Sticky gave the button. */
const actionSchema = z.object({
  user_id: idSchema,
  team_id: z.string().max(100).optional(),
  context: z.object({ token: z.string().max(2000), response_url: z.string().max(2000) }),
});

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether `token` is one of `tokens`, compared in constant time (digests of equal length). */
function isKnownToken(tokens: readonly Buffer[], token: string): boolean {
  const given = digest(token);
  let isKnown = false;
  for (const known of tokens) isKnown = timingSafeEqual(known, given) || isKnown;
  return isKnown;
}

const refuse = (reply: FastifyReply) =>
  reply.code(401).send({ error: 'The request does not carry a known command token.' });

/**
 * `/sticky` for Mattermost (docs/integrations.md, "Mattermost"): the slash command, verified by
 * its token, and its interactive buttons, verified by their signed context (Mattermost signs
 * nothing it posts to a button's URL). Only registered when MATTERMOST_COMMAND_TOKENS is set.
 */
export function mattermostPlugin(deps: ChatDeps, settings: MattermostSettings): FastifyPluginAsync {
  const { signer, lastRequests } = deps.integrations;
  const tokens = settings.commandTokens.map(digest);
  const serverOrigin = new URL(settings.serverUrl).origin;
  const actionsUrl = mattermostEndpoints(deps.config.publicUrl).actions;
  const isResponseUrl = (url: string) =>
    isAllowedUrl(url, (parsed) => parsed.origin === serverOrigin);

  /** The preview as an ephemeral attachment, each button carrying its signed context. */
  function mattermostAttachments(
    answer: Extract<PreviewAnswer, { kind: 'preview' }>,
    binding: ContextBinding,
    responseUrl: string,
  ) {
    const button = (
      id: string,
      name: string,
      action: 'send' | 'shuffle' | 'cancel',
      style: string,
    ) => ({
      id,
      name,
      style,
      integration: {
        url: actionsUrl,
        context: { token: signer.sign(binding, action, answer.state), response_url: responseUrl },
      },
    });
    return [
      {
        fallback: answer.item.title,
        title: answer.item.title,
        title_link: answer.item.url,
        image_url: answer.item.imageUrl,
        actions: [
          button('stickysend', 'Send', 'send', 'primary'),
          button('stickyshuffle', 'Shuffle', 'shuffle', 'default'),
          button('stickycancel', 'Cancel', 'cancel', 'danger'),
        ],
      },
    ];
  }

  const commandAnswer = (answer: PreviewAnswer, binding: ContextBinding, responseUrl: string) => {
    if (answer.kind === 'help') return { response_type: 'ephemeral', text: chatTexts.help };
    if (answer.kind === 'none') {
      return { response_type: 'ephemeral', text: chatTexts.noMatch(answer.words) };
    }
    return {
      response_type: 'ephemeral',
      text: '',
      attachments: mattermostAttachments(answer, binding, responseUrl),
    };
  };

  /** What a button answers: the ephemeral preview updated in place. */
  const updateWith = (answer: PreviewAnswer, binding: ContextBinding, responseUrl: string) => {
    if (answer.kind === 'preview') {
      return {
        update: {
          message: '',
          props: { attachments: mattermostAttachments(answer, binding, responseUrl) },
        },
      };
    }
    const text = answer.kind === 'none' ? chatTexts.noMatch(answer.words) : chatTexts.help;
    return { update: { message: text, props: { attachments: [] } } };
  };
  const updateText = (text: string) => ({ update: { message: text, props: { attachments: [] } } });

  return async (app) => {
    keepRawBodies(app);

    app.post('/commands', { schema: { hide: true } }, async (request, reply) => {
      const form = Object.fromEntries(new URLSearchParams(readRawBody(request).toString('utf8')));
      const isVerified = typeof form.token === 'string' && isKnownToken(tokens, form.token);
      await lastRequests.note('mattermost', isVerified);
      if (!isVerified) return refuse(reply);
      const command = commandSchema.safeParse(form);
      if (!command.success) return { response_type: 'ephemeral', text: chatTexts.help };
      const { team_id: teamId, user_id: userId, response_url: responseUrl } = command.data;
      const limited = checkChatLimits(deps, {
        platform: 'mattermost',
        workspaceId: teamId,
        userId,
      });
      if (limited) return { response_type: 'ephemeral', text: limited };
      const binding: ContextBinding = { platform: 'mattermost', userId, extra: responseUrl };
      return commandAnswer(await startPreview(deps, command.data.text), binding, responseUrl);
    });

    app.post('/actions', { schema: { hide: true } }, async (request, reply) => {
      let json: unknown;
      try {
        json = JSON.parse(readRawBody(request).toString('utf8'));
      } catch {
        json = undefined;
      }
      const parsed = actionSchema.safeParse(json);
      const binding: ContextBinding = {
        platform: 'mattermost',
        userId: parsed.data?.user_id ?? '',
        extra: parsed.data?.context.response_url ?? '',
      };
      const context = parsed.success
        ? signer.verify(binding, parsed.data.context.token)
        : undefined;
      // The context's signature is all that vouches for a click (docs/integrations.md).
      await lastRequests.note('mattermost', context !== undefined);
      if (!parsed.success || !context) return refuse(reply);
      const click = parsed.data;
      const caller = {
        platform: 'mattermost',
        workspaceId: click.team_id ?? '',
        userId: click.user_id,
      };
      const limited = checkChatLimits(deps, caller);
      if (limited) return { ephemeral_text: limited };
      const responseUrl = click.context.response_url;
      const { action, state } = context;
      if (action === 'cancel') return updateText(chatTexts.cancelled);
      if (action === 'shuffle') {
        return updateWith(await shufflePreview(deps, state), binding, responseUrl);
      }
      const sendable = await readSendable(deps, state);
      if (sendable.kind !== 'send') return updateWith(sendable, binding, responseUrl);
      // Only ever the configured Mattermost server, whatever a command said its response_url was.
      if (!isResponseUrl(responseUrl)) {
        request.log.warn({ platform: 'mattermost' }, 'A response_url outside MATTERMOST_URL');
        return { ephemeral_text: chatTexts.notAllowed };
      }
      const { item } = sendable;
      const isPosted = await postToPlatform(request.log, 'mattermost', {
        url: responseUrl,
        body: {
          response_type: 'in_channel',
          text: `![${item.title.replace(/[[\]]/g, '')}](${item.imageUrl})\n[${item.title.replace(/[[\]]/g, '')}](${item.url}) · ${chatTexts.postedUsing}`,
        },
      });
      if (!isPosted) return { ephemeral_text: chatTexts.notAllowed };
      await recordSend(deps, caller, item.id);
      return updateText(chatTexts.sent);
    });
  };
}
