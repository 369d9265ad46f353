import type { ListIntegrationsResponse } from '@sticky/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../test-support/app.ts';
import type { TestApp } from '../test-support/app.ts';
import { createDiscordKeys, slackHeaders } from '../test-support/chat-platforms.ts';
import { signInAs } from '../test-support/sign-in.ts';

const slackSecret = 'slack-signing-secret-never-shown-0123456789';

describe('/integrations routes and /api/admin/integrations', () => {
  let bare: TestApp;
  let configured: TestApp;
  const keys = createDiscordKeys();
  beforeAll(async () => {
    bare = await createTestApp({ ADMIN_EMAILS: 'admin@example.com' });
    configured = await createTestApp({
      PUBLIC_URL: 'http://gifs.localhost:3000',
      ADMIN_EMAILS: 'admin@example.com',
      SLACK_SIGNING_SECRET: slackSecret,
      DISCORD_PUBLIC_KEY: keys.publicKeyHex,
    });
  });
  afterAll(async () => {
    await bare?.close();
    await configured?.close();
  });

  it('answers 404 on every platform route while its setting is unset', async () => {
    for (const url of [
      '/integrations/slack/commands',
      '/integrations/slack/interactions',
      '/integrations/mattermost/commands',
      '/integrations/mattermost/actions',
      '/integrations/discord/interactions',
    ]) {
      const body = 'text=otter';
      const response = await bare.app.inject({
        method: 'POST',
        url,
        headers: slackHeaders(slackSecret, body),
        payload: body,
      });
      expect(response.statusCode, url).toBe(404);
    }
    // Configured ones answer; the others still do not.
    const mattermost = await configured.app.inject({
      method: 'POST',
      url: '/integrations/mattermost/commands',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'token=x',
    });
    expect(mattermost.statusCode).toBe(404);
  });

  it('is for admins only', async () => {
    expect((await bare.app.inject({ url: '/api/admin/integrations' })).statusCode).toBe(401);
    const { cookie } = await signInAs(bare, { email: 'someone@example.com' });
    const response = await bare.app.inject({ url: '/api/admin/integrations', headers: { cookie } });
    expect(response.statusCode).toBe(403);
  });

  it('lists each platform, configured or not, its endpoints and its last request, never a secret', async () => {
    const unsigned = await configured.app.inject({
      method: 'POST',
      url: '/integrations/slack/commands',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'text=otter',
    });
    expect(unsigned.statusCode).toBe(401);
    const { cookie } = await signInAs(configured, { email: 'admin@example.com' });
    const response = await configured.app.inject({
      url: '/api/admin/integrations',
      headers: { cookie },
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain(slackSecret);
    expect(response.body).not.toContain(keys.publicKeyHex);
    const answer = response.json() as ListIntegrationsResponse;
    expect(answer.publicUrl).toBe('http://gifs.localhost:3000');
    expect(answer.rating).toBe('pg-13');
    const byName = Object.fromEntries(answer.platforms.map((entry) => [entry.platform, entry]));
    expect(Object.keys(byName)).toEqual(['slack', 'mattermost', 'discord', 'telegram']);
    expect(byName.slack).toMatchObject({
      isConfigured: true,
      endpoints: [
        { url: 'http://gifs.localhost:3000/integrations/slack/commands' },
        { url: 'http://gifs.localhost:3000/integrations/slack/interactions' },
      ],
      lastRequest: { at: expect.any(String), isVerified: false },
      settings: expect.arrayContaining([{ name: 'SLACK_SIGNING_SECRET', isSet: true }]),
    });
    const manifest = JSON.parse(byName.slack!.manifest!.text) as {
      features: { slash_commands: Array<{ command: string; url: string }> };
      settings: { interactivity: { request_url: string } };
    };
    expect(manifest.features.slash_commands[0]).toMatchObject({
      command: '/sticky',
      url: 'http://gifs.localhost:3000/integrations/slack/commands',
    });
    expect(manifest.settings.interactivity.request_url).toBe(
      'http://gifs.localhost:3000/integrations/slack/interactions',
    );
    expect(byName.mattermost).toMatchObject({ isConfigured: false, lastRequest: null });
    expect(byName.discord).toMatchObject({
      isConfigured: true,
      endpoints: [{ url: 'http://gifs.localhost:3000/integrations/discord/interactions' }],
      lastRequest: null,
    });
    for (const entry of answer.platforms) expect(entry.setupSteps.length).toBeGreaterThan(2);
  });

  it('lists Telegram, which registers itself, with the last update its poller noted', async () => {
    const { cookie } = await signInAs(bare, { email: 'admin@example.com' });
    const read = async () =>
      (
        (
          await bare.app.inject({ url: '/api/admin/integrations', headers: { cookie } })
        ).json() as ListIntegrationsResponse
      ).platforms.find((entry) => entry.platform === 'telegram');
    expect(await read()).toMatchObject({
      name: 'Telegram',
      isConfigured: false,
      settings: [{ name: 'TELEGRAM_BOT_TOKEN', isSet: false }, { name: 'PUBLIC_URL' }],
    });
    // What the poller's onUpdates does with each batch (integrations/telegram/telegram.test.ts).
    await bare.app.deps.integrations.lastRequests.note('telegram', true);
    expect((await read())?.lastRequest).toMatchObject({ isVerified: true });
  });
});
