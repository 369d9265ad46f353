import type { AppConfig } from '../../config/env.ts';
import type { PlatformDescription } from '../platform-description.ts';

export const discordInteractionsPath = '/integrations/discord/interactions';

/** Discord on /admin → Integrations. */
export function describeDiscord(config: AppConfig): PlatformDescription {
  const { discord, discordRegistration } = config.integrations;
  return {
    platform: 'discord',
    name: 'Discord',
    isConfigured: discord !== undefined,
    endpoints: [
      { label: 'Interactions Endpoint URL', url: `${config.publicUrl}${discordInteractionsPath}` },
    ],
    setupSteps: [
      'At discord.com/developers/applications create an application; on its Installation page tick "Guild Install" and "User Install".',
      'Copy its Application ID into DISCORD_APPLICATION_ID and its Public Key into DISCORD_PUBLIC_KEY; on the Bot page reset and copy the token into DISCORD_BOT_TOKEN. Restart Sticky.',
      'Paste the Interactions Endpoint URL above on the General Information page and save: Discord checks that Sticky verifies its signatures.',
      'Run `npm run sticky -- discord register` once to register the /sticky command.',
      "Install the app (the Installation page's link) and type /sticky query:happy.",
    ],
    settings: [
      { name: 'DISCORD_PUBLIC_KEY', isSet: discord !== undefined },
      { name: 'DISCORD_APPLICATION_ID', isSet: discordRegistration.applicationId !== undefined },
      { name: 'DISCORD_BOT_TOKEN', isSet: discordRegistration.botToken !== undefined },
    ],
    notes: [
      "Discord unfurls the posted link itself from Sticky's page tags: PUBLIC_URL must be reachable from the internet for the GIF to show.",
    ],
  };
}
