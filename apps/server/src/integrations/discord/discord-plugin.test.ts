import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test-support/app.ts';
import type { TestApp } from '../../test-support/app.ts';
import {
  createDiscordKeys,
  insertChatCatalog,
  startFakePlatform,
} from '../../test-support/chat-platforms.ts';
import type { FakePlatform } from '../../test-support/chat-platforms.ts';

interface DiscordAnswer {
  type: number;
  data?: {
    flags?: number;
    content?: string;
    embeds?: Array<{ title?: string; url?: string; image?: { url: string } }>;
    components?: Array<{ components: Array<{ label: string; custom_id: string }> }>;
  };
}

const applicationId = '111111111111111111';

const customIdOf = (answer: DiscordAnswer, label: string) =>
  answer.data?.components?.[0]?.components.find((button) => button.label === label)?.custom_id ??
  '';

describe('/sticky for Discord', () => {
  let testApp: TestApp;
  let fake: FakePlatform;
  let catalog: Awaited<ReturnType<typeof insertChatCatalog>>;
  const keys = createDiscordKeys();
  beforeAll(async () => {
    fake = await startFakePlatform();
    testApp = await createTestApp({
      DISCORD_PUBLIC_KEY: keys.publicKeyHex,
      DISCORD_APPLICATION_ID: applicationId,
      DISCORD_API_BASE: `${fake.origin}/api/v10`,
      INTEGRATIONS_PER_USER_PER_MINUTE: '5',
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

  const post = (
    interaction: object,
    sign: (body: string) => Record<string, string> = (body) => keys.headers(body),
  ) => {
    const body = JSON.stringify(interaction);
    return testApp.app.inject({
      method: 'POST',
      url: '/integrations/discord/interactions',
      headers: sign(body),
      payload: body,
    });
  };
  // As a guild app (member) or a user-installed app in a DM (user, no guild).
  const who = (userId: string, guildId?: string) =>
    guildId
      ? { guild_id: guildId, channel_id: '222', member: { user: { id: userId } } }
      : { channel_id: '333', user: { id: userId } };
  const command = (query: string, userId: string, guildId?: string) => ({
    id: '1',
    application_id: applicationId,
    type: 2,
    token: 'command-token',
    version: 1,
    ...who(userId, guildId),
    data: { id: '9', name: 'sticky', type: 1, options: [{ name: 'query', type: 3, value: query }] },
  });
  const component = (customId: string, userId: string, guildId?: string) => ({
    id: '2',
    application_id: applicationId,
    type: 3,
    token: `component-token-${userId}`,
    version: 1,
    ...who(userId, guildId),
    message: { id: '444', flags: 64 },
    data: { custom_id: customId, component_type: 2 },
  });

  it('answers a PING with a PONG when signed, and 401 to anything unsigned or wrongly signed', async () => {
    expect((await post({ type: 1 })).json()).toEqual({ type: 1 });
    const other = createDiscordKeys();
    const wrong = await post(command('otter', '500', '900'), (body) => other.headers(body));
    const old = await post(command('otter', '500', '900'), (body) =>
      keys.headers(body, Math.floor(Date.now() / 1000) - 6 * 60),
    );
    const unsigned = await post(command('otter', '500', '900'), () => ({
      'content-type': 'application/json',
    }));
    const pingUnsigned = await post({ type: 1 }, () => ({ 'content-type': 'application/json' }));
    for (const response of [wrong, old, unsigned, pingUnsigned]) {
      expect(response.statusCode).toBe(401);
      expect(response.body).not.toMatch(/Otter/);
    }
    expect(fake.received).toHaveLength(0);
  });

  it('answers the command with an ephemeral preview and three buttons, in a guild and in a DM', async () => {
    for (const guild of ['900', undefined]) {
      const answer = (await post(command('otter', '501', guild))).json() as DiscordAnswer;
      expect(answer.type).toBe(4);
      expect(answer.data?.flags).toBe(64);
      expect(answer.data?.embeds?.[0]).toMatchObject({
        title: 'Otter waving',
        url: expect.stringContaining(catalog.publicIds[0]!),
        image: { url: expect.stringContaining('/media/') },
      });
      const buttons = answer.data?.components?.[0]?.components ?? [];
      expect(buttons.map((button) => button.label)).toEqual(['Send', 'Shuffle', 'Cancel']);
      for (const button of buttons) expect(button.custom_id.length).toBeLessThanOrEqual(100);
    }
    const none = (await post(command('zebracorn', '501', '900'))).json() as DiscordAnswer;
    expect(none.data?.content).toMatch(/^No GIFs found for “zebracorn”/);
  });

  it('shuffles and cancels by updating the preview, and never shows a withheld item', async () => {
    let answer = (await post(command('otter', '502', '900'))).json() as DiscordAnswer;
    const titles = [answer.data?.embeds?.[0]?.title];
    for (let round = 0; round < 3; round += 1) {
      answer = (await post(component(customIdOf(answer, 'Shuffle'), '502', '900'))).json();
      expect(answer.type).toBe(7);
      titles.push(answer.data?.embeds?.[0]?.title);
    }
    expect(titles).toEqual(['Otter waving', 'Otter swimming', 'Otter sleeping', 'Otter waving']);
    const cancelled = (await post(component(customIdOf(answer, 'Cancel'), '502', '900'))).json();
    expect(cancelled).toMatchObject({ type: 7, data: { content: 'Cancelled.', components: [] } });
    for (const id of catalog.withheldIds) expect(JSON.stringify(titles)).not.toContain(id);
    expect(fake.received).toHaveLength(0);
  });

  it('sends: the preview says Sent and exactly one channel message carries the link', async () => {
    const preview = (await post(command('otter', '503'))).json() as DiscordAnswer;
    const sent = await post(component(customIdOf(preview, 'Send'), '503'));
    expect(sent.json()).toMatchObject({ type: 7, data: { content: 'Sent.', components: [] } });
    const [message] = await fake.waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fake.received).toHaveLength(1);
    expect(message).toMatchObject({
      method: 'POST',
      path: `/api/v10/webhooks/${applicationId}/component-token-503`,
      body: { content: expect.stringContaining(`/gif/otter-waving-${catalog.publicIds[0]}`) },
    });
    expect((message!.body as { content: string }).content).toContain('Posted using /sticky');
    await testApp.app.deps.integrations.tasks.settle();
    const shares = await testApp.database.db.execute(
      sql`SELECT item_id FROM chat_item_events WHERE platform = 'discord'`,
    );
    expect(shares.rows).toEqual([{ item_id: catalog.publicIds[0] }]);
  });

  it("refuses another person's or a forged button", async () => {
    const preview = (await post(command('otter', '504', '900'))).json() as DiscordAnswer;
    const send = customIdOf(preview, 'Send');
    for (const answer of [
      await post(component(send, '505', '900')),
      await post(component(`${send.slice(0, 16)}:s:0:0:x:otter`, '504', '900')),
    ]) {
      expect(answer.json()).toMatchObject({
        type: 7,
        data: { content: 'This preview has expired: run /sticky again.' },
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fake.received).toHaveLength(0);
  });

  it('holds a person to the limit with an ephemeral message', async () => {
    const answers: DiscordAnswer[] = [];
    for (let index = 0; index < 6; index += 1) {
      answers.push((await post(command('otter', '506', '901'))).json());
    }
    expect(answers[4]?.data?.embeds).toHaveLength(1);
    expect(answers[5]).toMatchObject({
      type: 4,
      data: { flags: 64, content: expect.stringMatching(/^Easy there/) },
    });
  });
});
