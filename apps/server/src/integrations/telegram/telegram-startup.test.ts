import { describe, expect, it } from 'vitest';
import { outputLines, spawnServerProcess, waitForExit } from '../../test-support/processes.ts';

/** A bad token stops `npm start` with the reason, before anything starts, and never echoes it. */
describe('npm start with a bad TELEGRAM_BOT_TOKEN', () => {
  it.each([
    ['blank', '   ', 'TELEGRAM_BOT_TOKEN is blank'],
    [
      'malformed',
      'secret-words-not-a-token',
      'TELEGRAM_BOT_TOKEN must be the token @BotFather gave',
    ],
  ])(
    'stops on a %s token, saying why',
    async (_kind, value, reason) => {
      const server = await spawnServerProcess({ TELEGRAM_BOT_TOKEN: value });
      const code = await waitForExit(server.child);
      const output = outputLines(server).join('\n');
      expect(code).not.toBe(0);
      expect(output).toContain(reason);
      if (value.trim()) expect(output).not.toContain(value);
    },
    60_000,
  );
});
