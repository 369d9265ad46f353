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
