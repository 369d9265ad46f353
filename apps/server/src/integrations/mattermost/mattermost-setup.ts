import type { AppConfig } from '../../config/env.ts';
import type { PlatformDescription } from '../platform-description.ts';

/** Mattermost's endpoints on PUBLIC_URL. */
export function mattermostEndpoints(publicUrl: string) {
  return {
    commands: `${publicUrl}/integrations/mattermost/commands`,
    actions: `${publicUrl}/integrations/mattermost/actions`,
  };
}

/** Mattermost on /admin → Integrations. */
export function describeMattermost(config: AppConfig): PlatformDescription {
  const endpoints = mattermostEndpoints(config.publicUrl);
  const settings = config.integrations.mattermost;
  return {
    platform: 'mattermost',
    name: 'Mattermost',
    isConfigured: settings !== undefined,
    endpoints: [
      { label: 'Slash command Request URL (POST)', url: endpoints.commands },
      {
        label: 'Interactive buttons (Sticky gives it to Mattermost itself)',
        url: endpoints.actions,
      },
    ],
    setupSteps: [
      'In Mattermost, Integrations → Slash Commands → Add Slash Command: trigger word "sticky", Request URL the first endpoint above, Request Method POST, autocomplete on with hint "[words]".',
      'Copy the token Mattermost shows into MATTERMOST_COMMAND_TOKENS (one per team, separated by commas).',
      "Set MATTERMOST_URL to the Mattermost server's address (its response_url must be on it) and restart Sticky.",
      'If Sticky is on a private network, add its host to Mattermost\'s "Allow untrusted internal connections to" (System Console → Developer), so Mattermost may call the buttons\' URL.',
      'Type /sticky happy in any channel.',
    ],
    settings: [
      { name: 'MATTERMOST_COMMAND_TOKENS', isSet: settings !== undefined },
      { name: 'MATTERMOST_URL', isSet: settings !== undefined },
    ],
    notes: [
      'Mattermost fetches the images itself (or through its image proxy): the server must be able to reach PUBLIC_URL (or MEDIA_PUBLIC_URL).',
    ],
  };
}
