import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakePlatform } from '../test-support/chat-platforms.ts';
import type { FakePlatform } from '../test-support/chat-platforms.ts';
import { runCli } from '../test-support/processes.ts';

describe('npm run sticky -- discord register', () => {
  let fake: FakePlatform;
  beforeAll(async () => {
    fake = await startFakePlatform();
  });
  afterAll(async () => {
    await fake?.close();
  });

  it('registers /sticky as a global command for guild and user installs, and says so', async () => {
    const result = await runCli(['discord', 'register'], {
      DISCORD_APPLICATION_ID: '111111111111111111',
      DISCORD_BOT_TOKEN: 'bot-token-for-tests',
      DISCORD_API_BASE: `${fake.origin}/api/v10`,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /^Registered \/sticky \(command 1234567890\) as a global command of application 111111111111111111/,
    );
    expect(result.stdout).not.toContain('bot-token-for-tests');
    expect(fake.received).toHaveLength(1);
    expect(fake.received[0]).toMatchObject({
      method: 'PUT',
      path: '/api/v10/applications/111111111111111111/commands',
      headers: { authorization: 'Bot bot-token-for-tests' },
      body: [
        {
          name: 'sticky',
          type: 1,
          options: [{ type: 3, name: 'query', required: true }],
          integration_types: [0, 1],
          contexts: [0, 1, 2],
        },
      ],
    });
  }, 60_000);

  it('says what is missing without the application id or the bot token', async () => {
    const result = await runCli(['discord', 'register'], {
      DISCORD_API_BASE: `${fake.origin}/api/v10`,
    });
    expect(result.code).toBe(78);
    expect(result.stderr).toMatch(/needs DISCORD_APPLICATION_ID and DISCORD_BOT_TOKEN/);
  }, 60_000);
});
