const startedAt = performance.now();

/** Progress on stderr with the time since the run started; results go to files. */
export function log(message: string): void {
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(0).padStart(5);
  process.stderr.write(`[${seconds} s] ${message}\n`);
}
