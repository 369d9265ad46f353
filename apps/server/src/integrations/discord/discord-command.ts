import { maxChatQueryLength } from '../chat-search.ts';

/**
 * The global `/sticky` command (docs/integrations.md, "Discord"): one string option, usable as
 * a guild app and as a user-installed app in servers, DMs and group DMs.
 */
export const discordCommand = {
  name: 'sticky',
  type: 1,
  description: 'Find a GIF in Sticky and post it',
  options: [
    {
      type: 3,
      name: 'query',
      description: 'Words to look for',
      required: true,
      max_length: maxChatQueryLength,
    },
  ],
  // 0 guild install, 1 user install; 0 guilds, 1 the bot's DMs, 2 DMs and group DMs.
  integration_types: [0, 1],
  contexts: [0, 1, 2],
};

/**
 * Registers (overwrites) the application's global commands with `/sticky`, as
 * `PUT /applications/{id}/commands` with the bot token. Returns the command's id.
 */
export async function registerDiscordCommand(settings: {
  apiBase: string;
  applicationId: string;
  botToken: string;
}): Promise<{ id: string; name: string }> {
  const response = await fetch(
    `${settings.apiBase}/applications/${encodeURIComponent(settings.applicationId)}/commands`,
    {
      method: 'PUT',
      headers: {
        authorization: `Bot ${settings.botToken}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify([discordCommand]),
      signal: AbortSignal.timeout(15_000),
    },
  );
  const text = await response.text();
  if (!response.ok) {
    throw new Error(`Discord answered ${response.status}: ${text.slice(0, 300)}`);
  }
  const commands = JSON.parse(text) as Array<{ id: string; name: string }>;
  const command = commands.find((entry) => entry.name === discordCommand.name);
  if (!command) throw new Error('Discord answered without the /sticky command');
  return { id: command.id, name: command.name };
}
