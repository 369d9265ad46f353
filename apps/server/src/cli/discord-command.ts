import { registerDiscordCommand } from '../integrations/discord/discord-command.ts';
import type { CliCommand } from './cli-command.ts';
import { CliError, parseCommandArgs, usageExitCode } from './cli-command.ts';
import { readCliConfig } from './open-catalog.ts';

const usage = `npm run sticky -- discord register

Registers /sticky as a global command of the Discord application DISCORD_APPLICATION_ID, with
the bot token DISCORD_BOT_TOKEN (replacing the application's other global commands): usable in
servers that installed the app, and by people who installed it for themselves, in servers, DMs
and group DMs. Discord's API is DISCORD_API_BASE (https://discord.com/api/v10 when unset).`;

/** `npm run sticky -- discord register` (docs/integrations.md, "Discord"). */
export const discordCommand: CliCommand = {
  summary: 'Register the /sticky command with Discord',
  usage,
  async run(args) {
    const { positionals } = parseCommandArgs(usage, { args, allowPositionals: true, options: {} });
    if (positionals.length !== 1 || positionals[0] !== 'register') {
      throw new CliError(`Usage: ${usage}`, usageExitCode);
    }
    const { applicationId, botToken, apiBase } = readCliConfig().integrations.discordRegistration;
    if (!applicationId || !botToken) {
      throw new CliError(
        "discord register needs DISCORD_APPLICATION_ID and DISCORD_BOT_TOKEN (the application's General Information and Bot pages).",
        78,
      );
    }
    let command: { id: string; name: string };
    try {
      command = await registerDiscordCommand({ apiBase, applicationId, botToken });
    } catch (error) {
      throw new CliError(`Could not register /sticky: ${(error as Error).message}`);
    }
    console.log(
      `Registered /${command.name} (command ${command.id}) as a global command of application ${applicationId} at ${apiBase}: for guild and user installs, in servers, DMs and group DMs. Discord may take a few minutes to show it everywhere.`,
    );
    return 0;
  },
};
