/**
 * A service the configuration names cannot be used (a bucket, a read replica), found by a
 * start-up check. Its message is the one line the server stops with, naming the setting and
 * why, never a stack (docs/scaling.md, "Media storage" and "A read replica"). Exit code 69,
 * EX_UNAVAILABLE, as `storage migrate` exits when a store fails the same check.
 */
export class StartupError extends Error {
  readonly exitCode = 69;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StartupError';
  }
}
