import cliProgress from 'cli-progress';
import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';

/** One `npm run sticky -- <name> …` subcommand; main.ts maps names to these. */
export interface CliCommand {
  /** One line for the help text. */
  summary: string;
  usage: string;
  /** Returns the process exit code: non-zero only for fatal errors. */
  run: (args: string[]) => Promise<number>;
}

/** A fatal problem with a message for the person at the terminal (no stack trace). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** Exit code for a command used wrongly (sysexits' EX_USAGE). */
export const usageExitCode = 64;

/**
 * A command's arguments, read by node:util's parseArgs; an unknown option or a missing value
 * stops the command with parseArgs' message and the command's usage.
 */
export function parseCommandArgs<T extends ParseArgsConfig>(
  usage: string,
  config: T,
): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    throw new CliError(`${(error as Error).message}\nUsage: ${usage}`, usageExitCode);
  }
}

/** The commands' progress bar on the terminal: `format` in cli-progress's terms. */
export function createProgressBar(
  format: string,
  options: { clearOnComplete?: boolean; etaBuffer?: number } = {},
): cliProgress.SingleBar {
  return new cliProgress.SingleBar(
    { format, hideCursor: true, clearOnComplete: true, ...options },
    cliProgress.Presets.shades_classic,
  );
}
