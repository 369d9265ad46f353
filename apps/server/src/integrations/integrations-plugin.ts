import type { FastifyPluginAsync } from 'fastify';
import type { AppConfig } from '../config/env.ts';
import { discordPlugin } from './discord/discord-plugin.ts';
import type { ChatDeps } from './integration-services.ts';
import { mattermostPlugin } from './mattermost/mattermost-plugin.ts';
import { slackPlugin } from './slack/slack-plugin.ts';

/**
 * `/integrations/*`: the chat platforms' endpoints (docs/integrations.md). A platform's routes
 * exist only while its setting is present; before, they answer 404 like any unknown path.
 */
export function integrationsPlugin(deps: ChatDeps & { config: AppConfig }): FastifyPluginAsync {
  return async (app) => {
    const { slack, mattermost, discord } = deps.config.integrations;
    if (slack) await app.register(slackPlugin(deps, slack), { prefix: '/slack' });
    if (mattermost)
      await app.register(mattermostPlugin(deps, mattermost), { prefix: '/mattermost' });
    if (discord) await app.register(discordPlugin(deps, discord), { prefix: '/discord' });
  };
}
