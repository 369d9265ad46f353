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
import type { ChatDeps } from '../integration-services.ts';
import { keepRawBodies, readHeader, readRawBody } from '../raw-body.ts';
import { isAllowedUrl, postToPlatform } from '../response-poster.ts';
import type { ContextBinding } from '../signed-context.ts';
import { slackAnswer, slackChannelPost, slackEphemeral } from './slack-messages.ts';
import { isSlackRequestSigned } from './slack-signature.ts';

export interface SlackSettings {
  signingSecret: string;
  responseHosts: readonly string[];
}

/** The fields of a slash command we read (Slack sends more). */
const commandSchema = z.object({
  team_id: z.string().min(1).max(100),
  user_id: z.string().min(1).max(100),
  text: z.string().max(4000).default(''),
});

/** A button click (`block_actions`), the fields we read. */
const blockActionsSchema = z.object({
  type: z.literal('block_actions'),
  user: z.object({ id: z.string().min(1).max(100) }),
  team: z
    .object({ id: z.string().min(1).max(100) })
    .nullable()
    .optional(),
  response_url: z.string().max(2000),
  actions: z.array(z.object({ value: z.string().max(2000).optional() })).min(1),
});

const refuse = (reply: FastifyReply) =>
  reply.code(401).send({ error: 'The request is not signed by Slack.' });

/**
 * `/sticky` for Slack (docs/integrations.md, "Slack"): the slash command and its buttons. Only
 * registered when SLACK_SIGNING_SECRET is set; an encapsulated plugin, so its raw-body parser
 * applies to its two routes only.
 */
export function slackPlugin(deps: ChatDeps, settings: SlackSettings): FastifyPluginAsync {
  const { signer, lastRequests } = deps.integrations;
  const isResponseUrl = (url: string) =>
    isAllowedUrl(url, (parsed) => settings.responseHosts.includes(parsed.hostname.toLowerCase()));

  return async (app) => {
    keepRawBodies(app);
    // Every request is verified before anything is read from it.
    app.addHook('preHandler', async (request, reply) => {
      const isSigned = isSlackRequestSigned(settings.signingSecret, {
        timestamp: readHeader(request, 'x-slack-request-timestamp'),
        signature: readHeader(request, 'x-slack-signature'),
        body: readRawBody(request),
      });
      await lastRequests.note('slack', isSigned);
      if (!isSigned) return refuse(reply);
    });

    app.post('/commands', { schema: { hide: true } }, async (request) => {
      const form = Object.fromEntries(new URLSearchParams(readRawBody(request).toString('utf8')));
      const command = commandSchema.safeParse(form);
      if (!command.success) return slackEphemeral(chatTexts.help);
      const caller = {
        platform: 'slack',
        workspaceId: command.data.team_id,
        userId: command.data.user_id,
      };
      const limited = checkChatLimits(deps, caller);
      if (limited) return slackEphemeral(limited);
      const binding: ContextBinding = {
        platform: 'slack',
        userId: caller.userId,
        extra: caller.workspaceId,
      };
      return slackAnswer(await startPreview(deps, command.data.text), signer, binding);
    });

    app.post('/interactions', { schema: { hide: true } }, async (request, reply) => {
      const form = new URLSearchParams(readRawBody(request).toString('utf8'));
      let payload: unknown;
      try {
        payload = JSON.parse(form.get('payload') ?? '');
      } catch {
        payload = undefined;
      }
      const parsed = blockActionsSchema.safeParse(payload);
      // Other interactions (shortcuts, view submissions) are not ours: acknowledged, ignored.
      if (!parsed.success) return reply.code(200).send();
      const click = parsed.data;
      const caller = {
        platform: 'slack',
        workspaceId: click.team?.id ?? '',
        userId: click.user.id,
      };
      const binding: ContextBinding = {
        platform: 'slack',
        userId: caller.userId,
        extra: caller.workspaceId,
      };
      // A response_url elsewhere is never called, whatever a signed request says.
      if (!isResponseUrl(click.response_url)) {
        request.log.warn({ platform: 'slack' }, 'A response_url outside SLACK_RESPONSE_HOSTS');
        return reply.code(200).send(slackEphemeral(chatTexts.notAllowed));
      }
      const respond = (body: unknown) =>
        postToPlatform(request.log, 'slack', { url: click.response_url, body });
      const context = signer.verify(binding, click.actions[0]?.value ?? '');
      if (!context) {
        await respond({ ...slackEphemeral(chatTexts.expired), replace_original: true });
        return reply.code(200).send();
      }
      const limited = checkChatLimits(deps, caller);
      if (limited) {
        await respond({ ...slackEphemeral(limited), replace_original: false });
        return reply.code(200).send();
      }
      const { action, state } = context;
      if (action === 'cancel') {
        await respond({ delete_original: true });
      } else if (action === 'shuffle') {
        const answer = slackAnswer(await shufflePreview(deps, state), signer, binding);
        await respond({ ...answer, replace_original: true });
      } else {
        const sendable = await readSendable(deps, state);
        if (sendable.kind !== 'send') {
          await respond({ ...slackAnswer(sendable, signer, binding), replace_original: true });
        } else if (await respond(slackChannelPost(sendable.item))) {
          await respond({ delete_original: true });
          await recordSend(deps, caller, sendable.item.id);
        }
      }
      return reply.code(200).send();
    });
  };
}
