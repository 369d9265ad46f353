import type { AppConfig } from '../../config/env.ts';
import type { PlatformDescription } from '../platform-description.ts';

/** Slack's endpoints on PUBLIC_URL. */
export function slackEndpoints(publicUrl: string) {
  return {
    commands: `${publicUrl}/integrations/slack/commands`,
    interactions: `${publicUrl}/integrations/slack/interactions`,
  };
}

/** A Slack app manifest for "Create an app → From a manifest", naming our endpoints. */
export function makeSlackManifest(publicUrl: string): string {
  const endpoints = slackEndpoints(publicUrl);
  const manifest = {
    display_information: {
      name: 'Sticky',
      description: 'Find a GIF in Sticky and post it',
    },
    features: {
      slash_commands: [
        {
          command: '/sticky',
          url: endpoints.commands,
          description: 'Find a GIF and post it',
          usage_hint: '[words]',
          should_escape: false,
        },
      ],
    },
    oauth_config: { scopes: { bot: ['commands'] } },
    settings: {
      interactivity: { is_enabled: true, request_url: endpoints.interactions },
      org_deploy_enabled: false,
      socket_mode_enabled: false,
      token_rotation_enabled: false,
    },
  };
  return JSON.stringify(manifest, null, 2);
}

/** Slack on /admin → Integrations. */
export function describeSlack(config: AppConfig): PlatformDescription {
  const endpoints = slackEndpoints(config.publicUrl);
  return {
    platform: 'slack',
    name: 'Slack',
    isConfigured: config.integrations.slack !== undefined,
    endpoints: [
      { label: 'Slash command Request URL', url: endpoints.commands },
      { label: 'Interactivity Request URL', url: endpoints.interactions },
    ],
    setupSteps: [
      'At api.slack.com/apps choose "Create New App", then "From a manifest", pick the workspace and paste the manifest below.',
      'Install the app to the workspace.',
      'Copy "Signing Secret" from the app\'s Basic Information page into SLACK_SIGNING_SECRET and restart Sticky.',
      'Type /sticky happy in any channel.',
    ],
    settings: [
      { name: 'SLACK_SIGNING_SECRET', isSet: config.integrations.slack !== undefined },
      { name: 'SLACK_RESPONSE_HOSTS', isSet: true },
    ],
    manifest: { format: 'json', text: makeSlackManifest(config.publicUrl) },
    notes: [
      'Slack fetches the images itself: PUBLIC_URL (or MEDIA_PUBLIC_URL) must be reachable from the internet for previews and posts to show the GIF.',
    ],
  };
}
