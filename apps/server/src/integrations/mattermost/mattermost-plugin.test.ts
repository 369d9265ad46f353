import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test-support/app.ts';
import type { TestApp } from '../../test-support/app.ts';
import { insertChatCatalog, startFakePlatform } from '../../test-support/chat-platforms.ts';
import type { FakePlatform } from '../../test-support/chat-platforms.ts';

const tokens = ['team-one-command-token-0123456789', 'team-two-command-token-9876543210'];

interface Attachment {
  title: string;
  title_link: string;
  image_url: string;
  actions: Array<{
    id: string;
    name: string;
    integration: { url: string; context: { token: string; response_url: string } };
  }>;
}
interface CommandAnswer {
  response_type: string;
  text: string;
  attachments?: Attachment[];
}
interface ActionAnswer {
  update?: { message: string; props: { attachments: Attachment[] } };
  ephemeral_text?: string;
}

const contextOf = (attachments: Attachment[] | undefined, name: string) =>
  attachments?.[0]?.actions.find((action) => action.name === name)?.integration.context;

describe('/sticky for Mattermost', () => {
  let testApp: TestApp;
  let fake: FakePlatform;
  let catalog: Awaited<ReturnType<typeof insertChatCatalog>>;
  beforeAll(async () => {
    fake = await startFakePlatform();
    testApp = await createTestApp({
      PUBLIC_URL: 'https://gifs.example.com',
      MATTERMOST_COMMAND_TOKENS: tokens.join(','),
      MATTERMOST_URL: fake.origin,
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

  const command = (
    text: string,
    userId: string,
    options: { token?: string | null; responseUrl?: string } = {},
  ) => {
    const fields: Record<string, string> = {
      channel_id: 'channel1',
      channel_name: 'town-square',
      command: '/sticky',
      response_url: options.responseUrl ?? `${fake.origin}/hooks/commands/abc`,
      team_domain: 'otters',
      team_id: 'team1',
      text,
      trigger_id: 'trigger',
      user_id: userId,
      user_name: 'jane',
    };
    if (options.token !== null) fields.token = options.token ?? tokens[1]!;
    const body = new URLSearchParams(fields).toString();
    return testApp.app.inject({
      method: 'POST',
      url: '/integrations/mattermost/commands',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: body,
    });
  };
  // As the Mattermost server posts a button's click to its integration URL.
  const click = (context: unknown, userId: string) =>
    testApp.app.inject({
      method: 'POST',
      url: '/integrations/mattermost/actions',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({
        user_id: userId,
        user_name: 'jane',
        channel_id: 'channel1',
        team_id: 'team1',
        post_id: 'post1',
        trigger_id: 'trigger',
        type: '',
        data_source: '',
        context,
      }),
    });

  it('answers a command with a known token with an ephemeral preview and three buttons', async () => {
    const response = await command('otter', 'user1');
    expect(response.statusCode).toBe(200);
    const answer = response.json() as CommandAnswer;
    expect(answer.response_type).toBe('ephemeral');
    expect(answer.attachments?.[0]).toMatchObject({
      title: 'Otter waving',
      title_link: expect.stringContaining(catalog.publicIds[0]!),
      image_url: expect.stringContaining('/media/'),
    });
    expect(answer.attachments?.[0]?.actions.map((action) => action.name)).toEqual([
      'Send',
      'Shuffle',
      'Cancel',
    ]);
    expect(answer.attachments?.[0]?.actions[0]?.integration.url).toBe(
      'https://gifs.example.com/integrations/mattermost/actions',
    );
    expect((await command('', 'user1')).json().text).toContain('/sticky <words>');
    expect((await command('zebracorn', 'user1')).json().text).toMatch(/^No GIFs found/);
  });

  it('refuses a wrong or missing token with 401, and does nothing', async () => {
    for (const token of ['team-three-command-token-000000000', '', null]) {
      const response = await command('otter', 'user2', { token });
      expect(response.statusCode).toBe(401);
      expect(response.body).not.toMatch(/Otter/);
    }
    expect(fake.received).toHaveLength(0);
  });

  it('refuses a forged, altered, unsigned or borrowed button context with 401', async () => {
    const answer = (await command('otter', 'user3')).json() as CommandAnswer;
    const send = contextOf(answer.attachments, 'Send')!;
    for (const [context, userId] of [
      [{ ...send, token: send.token.replace(':s:', ':h:') }, 'user3'],
      [{ ...send, response_url: 'https://evil.example/hook' }, 'user3'],
      [{ response_url: send.response_url }, 'user3'],
      [send, 'user4'],
    ] as const) {
      expect((await click(context, userId)).statusCode).toBe(401);
    }
    expect(fake.received).toHaveLength(0);
  });

  it('shuffles and cancels by updating the preview, never to a withheld item', async () => {
    const answer = (await command('otter', 'user5')).json() as CommandAnswer;
    let attachments = answer.attachments;
    const titles = [attachments?.[0]?.title];
    for (let round = 0; round < 3; round += 1) {
      const next = (await click(contextOf(attachments, 'Shuffle'), 'user5')).json() as ActionAnswer;
      attachments = next.update?.props.attachments;
      titles.push(attachments?.[0]?.title);
    }
    expect(titles).toEqual(['Otter waving', 'Otter swimming', 'Otter sleeping', 'Otter waving']);
    const cancelled = (await click(contextOf(attachments, 'Cancel'), 'user5')).json();
    expect(cancelled).toEqual({ update: { message: 'Cancelled.', props: { attachments: [] } } });
    for (const id of catalog.withheldIds) expect(JSON.stringify(titles)).not.toContain(id);
    expect(fake.received).toHaveLength(0);
  });

  it('sends exactly one in_channel post through the response_url and marks the preview Sent', async () => {
    const answer = (await command('otter', 'user6')).json() as CommandAnswer;
    const sent = (await click(contextOf(answer.attachments, 'Send'), 'user6')).json();
    expect(sent).toEqual({ update: { message: 'Sent.', props: { attachments: [] } } });
    expect(fake.received).toHaveLength(1);
    expect(fake.received[0]).toMatchObject({
      method: 'POST',
      path: '/hooks/commands/abc',
      body: {
        response_type: 'in_channel',
        text: expect.stringContaining(`/gif/otter-waving-${catalog.publicIds[0]}`),
      },
    });
    expect((fake.received[0]!.body as { text: string }).text).toContain('Posted using /sticky');
  });

  it('never calls a response_url that is not on MATTERMOST_URL', async () => {
    const elsewhere = fake.origin.replace('127.0.0.1', 'localhost');
    const answer = (
      await command('otter', 'user7', {
        responseUrl: `${elsewhere}/hooks/commands/abc`,
      })
    ).json() as CommandAnswer;
    const sent = (await click(contextOf(answer.attachments, 'Send'), 'user7')).json();
    expect(sent).toEqual({ ephemeral_text: expect.stringMatching(/may not post there/) });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fake.received).toHaveLength(0);
  });

  it('holds a person to the limit with an ephemeral answer', async () => {
    const answers: CommandAnswer[] = [];
    for (let index = 0; index < 6; index += 1)
      answers.push((await command('otter', 'user8')).json());
    expect(answers[4]?.attachments).toHaveLength(1);
    expect(answers[5]).toEqual({
      response_type: 'ephemeral',
      text: expect.stringMatching(/^Easy there/),
    });
  });
});
