import type { FastifyPluginAsync } from 'fastify';
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
import { keepRawBodies, readHeader, readRawBody } from '../raw-body.ts';
import { postToPlatform } from '../response-poster.ts';
import type { ContextBinding, ContextSigner, PreviewAction } from '../signed-context.ts';
import { isDiscordRequestSigned, readDiscordPublicKey } from './discord-signature.ts';

export interface DiscordSettings {
  publicKey: string;
  apiBase: string;
}

/** Interaction types (Discord's numbers). */
const ping = 1;
const applicationCommand = 2;
const messageComponent = 3;

/** Response types: PONG, a new message, an update of the message the button is on. */
const pong = 1;
const channelMessage = 4;
const updateMessage = 7;

/** EPHEMERAL: only the person who asked sees the message. */
const ephemeral = 64;

/** A custom_id holds at most this many characters. */
const maxCustomIdLength = 100;

const snowflake = z.string().regex(/^\d{1,20}$/);

const interactionSchema = z.object({
  type: z.number().int(),
  application_id: snowflake.optional(),
  token: z.string().max(1000).optional(),
  guild_id: snowflake.optional(),
  channel_id: snowflake.optional(),
  member: z.object({ user: z.object({ id: snowflake }) }).optional(),
  user: z.object({ id: snowflake }).optional(),
  data: z
    .object({
      name: z.string().optional(),
      custom_id: z.string().max(maxCustomIdLength).optional(),
      options: z.array(z.object({ name: z.string(), value: z.unknown().optional() })).optional(),
    })
    .optional(),
});

const noMentions = { parse: [] as string[] };

/** An ephemeral text answer to a command, or the text of an updated preview. */
const textMessage = (text: string) => ({
  content: text,
  embeds: [],
  components: [],
  allowed_mentions: noMentions,
});

/**
 * A preview's buttons' custom_ids: each holds the signed context, the words shortened until it
 * fits Discord's 100 characters.
 */
function signButtons(
  signer: ContextSigner,
  binding: ContextBinding,
  state: Extract<PreviewAnswer, { kind: 'preview' }>['state'],
) {
  let words = [...state.words];
  const sign = (action: PreviewAction) =>
    signer.sign(binding, action, { ...state, words: words.join('') });
  while (words.length > 1 && sign('shuffle').length > maxCustomIdLength) words = words.slice(0, -1);
  return { send: sign('send'), shuffle: sign('shuffle'), cancel: sign('cancel') };
}

/** A preview, help or no match, as message data (flags are the caller's). */
function discordMessage(answer: PreviewAnswer, signer: ContextSigner, binding: ContextBinding) {
  if (answer.kind === 'help') return textMessage(chatTexts.help);
  if (answer.kind === 'none') return textMessage(chatTexts.noMatch(answer.words));
  const ids = signButtons(signer, binding, answer.state);
  return {
    content: '',
    embeds: [
      {
        title: answer.item.title.slice(0, 256),
        url: answer.item.url,
        image: { url: answer.item.imageUrl },
      },
    ],
    components: [
      {
        type: 1,
        components: [
          { type: 2, style: 1, label: 'Send', custom_id: ids.send },
          { type: 2, style: 2, label: 'Shuffle', custom_id: ids.shuffle },
          { type: 2, style: 4, label: 'Cancel', custom_id: ids.cancel },
        ],
      },
    ],
    allowed_mentions: noMentions,
  };
}

/**
 * `/sticky query:<words>` for Discord (docs/integrations.md, "Discord"): one interactions
 * endpoint for the command and its buttons, verified with DISCORD_PUBLIC_KEY. Only registered
 * when it is set; encapsulated, so its raw-body parser applies to its route only.
 */
export function discordPlugin(deps: ChatDeps, settings: DiscordSettings): FastifyPluginAsync {
  const { signer, lastRequests, tasks } = deps.integrations;
  const publicKey = readDiscordPublicKey(settings.publicKey);

  return async (app) => {
    keepRawBodies(app);

    app.post('/interactions', { schema: { hide: true } }, async (request, reply) => {
      const body = readRawBody(request);
      const isSigned = isDiscordRequestSigned(publicKey, {
        timestamp: readHeader(request, 'x-signature-timestamp'),
        signature: readHeader(request, 'x-signature-ed25519'),
        body,
      });
      await lastRequests.note('discord', isSigned);
      if (!isSigned) return reply.code(401).send({ error: 'invalid request signature' });
      let json: unknown;
      try {
        json = JSON.parse(body.toString('utf8'));
      } catch {
        json = undefined;
      }
      const parsed = interactionSchema.safeParse(json);
      if (!parsed.success) return reply.code(400).send({ error: 'not an interaction' });
      const interaction = parsed.data;
      if (interaction.type === ping) return { type: pong };

      const userId = interaction.member?.user.id ?? interaction.user?.id ?? '';
      // A user-installed app in a DM has no guild: the channel stands for it.
      const caller = {
        platform: 'discord',
        workspaceId: interaction.guild_id ?? `channel:${interaction.channel_id ?? ''}`,
        userId,
      };
      const binding: ContextBinding = { platform: 'discord', userId };
      const limited = checkChatLimits(deps, caller);
      if (limited) {
        return { type: channelMessage, data: { ...textMessage(limited), flags: ephemeral } };
      }

      if (interaction.type === applicationCommand) {
        const query = interaction.data?.options?.find((option) => option.name === 'query')?.value;
        const answer = await startPreview(deps, typeof query === 'string' ? query : '');
        return {
          type: channelMessage,
          data: { ...discordMessage(answer, signer, binding), flags: ephemeral },
        };
      }
      if (interaction.type !== messageComponent) {
        return reply.code(400).send({ error: 'unsupported interaction type' });
      }

      const context = signer.verify(binding, interaction.data?.custom_id ?? '');
      if (!context) return { type: updateMessage, data: textMessage(chatTexts.expired) };
      const { action, state } = context;
      if (action === 'cancel')
        return { type: updateMessage, data: textMessage(chatTexts.cancelled) };
      if (action === 'shuffle') {
        const answer = await shufflePreview(deps, state);
        return { type: updateMessage, data: discordMessage(answer, signer, binding) };
      }
      const sendable = await readSendable(deps, state);
      if (sendable.kind !== 'send') {
        return { type: updateMessage, data: discordMessage(sendable, signer, binding) };
      }
      const { application_id: applicationId, token } = interaction;
      if (!applicationId || !token) return reply.code(400).send({ error: 'no interaction token' });
      // The preview becomes "Sent"; the GIF's link goes to the channel as a follow-up, which
      // Discord accepts only once the interaction was answered (docs/integrations.md, "Discord").
      reply.raw.once('finish', () =>
        tasks.run(async () => {
          const isPosted = await postToPlatform(request.log, 'discord', {
            url: `${settings.apiBase}/webhooks/${applicationId}/${encodeURIComponent(token)}`,
            body: {
              content: `${sendable.item.url}\n-# ${chatTexts.postedUsing}`,
              allowed_mentions: noMentions,
            },
          });
          if (isPosted) await recordSend(deps, caller, sendable.item.id);
        }),
      );
      return { type: updateMessage, data: textMessage(chatTexts.sent) };
    });
  };
}
