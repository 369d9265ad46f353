import { describe, expect, it } from 'vitest';
import { CliError, parseCommandArgs, usageExitCode } from './cli-command.ts';

describe('parseCommandArgs', () => {
  const usage = 'npm run sticky -- example [--force] <path>';
  const config = {
    allowPositionals: true,
    options: { force: { type: 'boolean', default: false } },
  } as const;

  it('reads the options and positionals a command declares', () => {
    const { values, positionals } = parseCommandArgs(usage, {
      ...config,
      args: ['--force', 'some/folder'],
    });
    expect(values.force).toBe(true);
    expect(positionals).toEqual(['some/folder']);
  });

  it('stops on an unknown option with what was wrong and the usage, as a usage error', () => {
    let caught: unknown;
    try {
      parseCommandArgs(usage, { ...config, args: ['--forse'] });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CliError);
    const error = caught as CliError;
    expect(error.exitCode).toBe(usageExitCode);
    expect(error.message).toMatch(/'--forse'/);
    expect(error.message).toContain(`Usage: ${usage}`);
  });
});
