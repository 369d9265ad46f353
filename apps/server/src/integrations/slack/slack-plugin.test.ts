import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test-support/app.ts';
import type { TestApp } from '../../test-support/app.ts';
import {
  insertChatCatalog,
  slackHeaders,
  startFakePlatform,
} from '../../test-support/chat-platforms.ts';
import type { FakePlatform } from '../../test-support/chat-platforms.ts';

const secret = 'slack-signing-secret-for-tests-0123456789';

interface SlackMessage {
  response_type?: string;
  text?: string;
  replace_original?: boolean;
  delete_original?: boolean;
  blocks?: Array<{
    type: string;
    image_url?: string;
    title?: { text: string };
    elements?: Array<{ action_id?: string; value?: string; text?: unknown }>;
  }>;
}

const titleOf = (message: SlackMessage) =>
  message.blocks?.find((block) => block.type === 'image')?.title?.text;
const valueOf = (message: SlackMessage, action: string) =>
  message.blocks
    ?.find((block) => block.type === 'actions')
    ?.elements?.find((element) => element.action_id === `sticky_${action}`)?.value ?? '';

describe('/sticky for Slack', () => {
  let testApp: TestApp;
  let fake: FakePlatform;
  let catalog: Awaited<ReturnType<typeof insertChatCatalog>>;
  beforeAll(async () => {
    fake = await startFakePlatform();
    testApp = await createTestApp({
      SLACK_SIGNING_SECRET: secret,
      SLACK_RESPONSE_HOSTS: '127.0.0.1',
      INTEGRATIONS_PER_USER_PER_MINUTE: '5',
      INTEGRATIONS_PER_WORKSPACE_PER_MINUTE: '12',
    });
    catalog = await insertChatCatalog(testApp.database);
  });
  afterAll(async () => {
    await testApp?.close();
    await fake?.close();
  });
  beforeEach(() => {
    fake.received.length = 0;
  });

  const command = (
    text: string,
    caller: { team: string; user: string },
    sign: (body: string) => Record<string, string> = (body) => slackHeaders(secret, body),
  ) => {
    const body = new URLSearchParams({
      token: 'deprecated-verification-token',
      team_id: caller.team,
      team_domain: 'otters',
      channel_id: 'C0001',
      channel_name: 'general',
      user_id: caller.user,
      user_name: 'jane',
      command: '/sticky',
      text,
      response_url: `${fake.origin}/commands/T1/1/abc`,
      trigger_id: '1.2.3',
      api_app_id: 'A0001',
    }).toString();
    return testApp.app.inject({
      method: 'POST',
      url: '/integrations/slack/commands',
      headers: sign(body),
      payload: body,
    });
  };

  const click = (
    value: string,
    caller: { team: string; user: string },
    responseUrl = `${fake.origin}/actions/T1/1/xyz`,
  ) => {
    const payload = {
      type: 'block_actions',
      user: { id: caller.user, username: 'jane', team_id: caller.team },
      team: { id: caller.team, domain: 'otters' },
      channel: { id: 'C0001', name: 'general' },
      container: { type: 'message', message_ts: '1.1', is_ephemeral: true },
      response_url: responseUrl,
      trigger_id: '1.2.3',
      actions: [
        {
          action_id: 'sticky_send',
          block_id: 'sticky_preview',
          value,
          type: 'button',
          action_ts: '1',
        },
      ],
    };
    const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
    return testApp.app.inject({
      method: 'POST',
      url: '/integrations/slack/interactions',
      headers: slackHeaders(secret, body),
      payload: body,
    });
  };

  it('answers a signed command with an ephemeral preview of the best public match', async () => {
    const response = await command('otter', { team: 'T1', user: 'U1' });
    expect(response.statusCode).toBe(200);
    const message = response.json() as SlackMessage;
    expect(message.response_type).toBe('ephemeral');
    expect(titleOf(message)).toBe('Otter waving');
    const image = message.blocks?.find((block) => block.type === 'image');
    expect(image?.image_url).toMatch(new RegExp(`/media/.*${catalog.publicIds[0]}`));
    expect(message.blocks?.find((block) => block.type === 'actions')?.elements).toHaveLength(3);
    // A typo finds it too: the web app's search.
    expect(titleOf((await command('ottr', { team: 'T1', user: 'U1' })).json())).toMatch(/^Otter/);
    expect(fake.received).toHaveLength(0);
  });

  it('answers help without words and a hint without a match', async () => {
    expect((await command('  ', { team: 'T1', user: 'U2' })).json()).toEqual({
      response_type: 'ephemeral',
      text: expect.stringContaining('/sticky <words>'),
    });
    expect((await command('zebracorn', { team: 'T1', user: 'U2' })).json()).toEqual({
      response_type: 'ephemeral',
      text: expect.stringMatching(/^No GIFs found for “zebracorn”\. Try/),
    });
  });

  it('refuses a wrong signature, an old timestamp and an unsigned request with 401, and does nothing', async () => {
    const wrong = await command('otter', { team: 'T1', user: 'U3' }, (body) =>
      slackHeaders('another-secret-of-some-other-app-000000', body),
    );
    const old = await command('otter', { team: 'T1', user: 'U3' }, (body) =>
      slackHeaders(secret, body, Math.floor(Date.now() / 1000) - 6 * 60),
    );
    const unsigned = await command('otter', { team: 'T1', user: 'U3' }, () => ({
      'content-type': 'application/x-www-form-urlencoded',
    }));
    // Signed for other bytes than were sent.
    const altered = await command('otter', { team: 'T1', user: 'U3' }, (body) =>
      slackHeaders(secret, body.replace('otter', 'beaver')),
    );
    for (const response of [wrong, old, unsigned, altered]) {
      expect(response.statusCode).toBe(401);
      expect(response.body).not.toMatch(/Otter/);
    }
    const [platform] = (await testApp.app.deps.integrations.registry.list()).filter(
      (entry) => entry.platform === 'slack',
    );
    expect(platform?.lastRequest).toEqual({ at: expect.any(String), isVerified: false });
    expect(fake.received).toHaveLength(0);
  });

  it('shuffles to another item and sends exactly one channel post, counted as a share', async () => {
    const caller = { team: 'T4', user: 'U4' };
    const preview = (await command('otter', caller)).json() as SlackMessage;
    expect((await click(valueOf(preview, 'shuffle'), caller)).statusCode).toBe(200);
    const [shuffled] = await fake.waitFor(1);
    const next = shuffled!.body as SlackMessage;
    expect(next.replace_original).toBe(true);
    expect(titleOf(next)).toBe('Otter swimming');
    fake.received.length = 0;

    expect((await click(valueOf(next, 'send'), caller)).statusCode).toBe(200);
    const posts = await fake.waitFor(2);
    const inChannel = posts.filter(
      (post) => (post.body as SlackMessage).response_type === 'in_channel',
    );
    expect(inChannel).toHaveLength(1);
    const post = inChannel[0]!.body as SlackMessage;
    expect(titleOf(post)).toBe('Otter swimming');
    expect(JSON.stringify(post)).toContain('Posted using /sticky');
    expect(JSON.stringify(post)).toMatch(new RegExp(`/gif/otter-swimming-${catalog.publicIds[1]}`));
    expect(posts.map((entry) => entry.path)).toEqual(['/actions/T1/1/xyz', '/actions/T1/1/xyz']);
    expect(posts.filter((entry) => (entry.body as SlackMessage).delete_original)).toHaveLength(1);
    const shares = await testApp.database.db.execute<{ item_id: string; platform: string }>(
      sql`SELECT item_id, platform FROM chat_item_events`,
    );
    expect(shares.rows).toEqual([{ item_id: catalog.publicIds[1], platform: 'slack' }]);
  });

  it('cancels by deleting the preview', async () => {
    const caller = { team: 'T5', user: 'U5' };
    const preview = (await command('otter', caller)).json() as SlackMessage;
    await click(valueOf(preview, 'cancel'), caller);
    const [post] = await fake.waitFor(1);
    expect(post!.body).toEqual({ delete_original: true });
  });

  it('never shows a private, unlisted, hidden or over-rated item, however far it shuffles', async () => {
    const caller = { team: 'T6', user: 'U6' };
    let message = (await command('otter', caller)).json() as SlackMessage;
    const seen = [titleOf(message)];
    for (let round = 0; round < 4; round += 1) {
      fake.received.length = 0;
      await click(valueOf(message, 'shuffle'), caller);
      message = (await fake.waitFor(1))[0]!.body as SlackMessage;
      seen.push(titleOf(message));
    }
    expect(seen).toEqual([
      'Otter waving',
      'Otter swimming',
      'Otter sleeping',
      'Otter waving',
      'Otter swimming',
    ]);
    expect(JSON.stringify(seen)).not.toMatch(/hidden|private|unlisted|rated/);
    for (const id of catalog.withheldIds) expect(JSON.stringify(message)).not.toContain(id);
  });

  it('never calls a response_url outside SLACK_RESPONSE_HOSTS', async () => {
    const caller = { team: 'T7', user: 'U7' };
    const preview = (await command('otter', caller)).json() as SlackMessage;
    // The same fake, named by a host that is not allowed.
    const elsewhere = fake.origin.replace('127.0.0.1', 'localhost');
    for (const action of ['send', 'shuffle', 'cancel']) {
      const response = await click(valueOf(preview, action), caller, `${elsewhere}/actions/x`);
      expect(response.statusCode).toBe(200);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(fake.received).toHaveLength(0);
  });

  it('refuses a forged or another person’s button context', async () => {
    const caller = { team: 'T8', user: 'U8' };
    const preview = (await command('otter', caller)).json() as SlackMessage;
    const value = valueOf(preview, 'send');
    await click(value, { team: 'T8', user: 'U9' });
    await click(value.replace(/:s:/, ':h:'), caller);
    const posts = await fake.waitFor(2);
    expect(posts.every((post) => (post.body as SlackMessage).response_type === 'ephemeral')).toBe(
      true,
    );
    expect(posts.map((post) => (post.body as SlackMessage).text)).toEqual([
      'This preview has expired: run /sticky again.',
      'This preview has expired: run /sticky again.',
    ]);
  });

  it('holds a person and a workspace to their limits, with a friendly ephemeral answer', async () => {
    const answers: string[] = [];
    for (let index = 0; index < 6; index += 1) {
      answers.push(JSON.stringify((await command('otter', { team: 'T9', user: 'U1' })).json()));
    }
    expect(answers.slice(0, 5).every((answer) => answer.includes('Otter waving'))).toBe(true);
    expect(JSON.parse(answers[5]!)).toEqual({
      response_type: 'ephemeral',
      text: expect.stringMatching(/^Easy there/),
    });
    const team: string[] = [];
    for (const user of ['U2', 'U3', 'U4']) {
      for (let index = 0; index < 3; index += 1) {
        team.push(JSON.stringify((await command('otter', { team: 'T9', user })).json()));
      }
    }
    // 5 of U1 and 7 more reach the workspace's 12.
    expect(team.filter((answer) => answer.includes('This workspace'))).toHaveLength(2);
  });
});
