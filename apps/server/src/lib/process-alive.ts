/**
 * Whether a process with this pid still runs. Signal 0 checks without sending anything; EPERM
 * means it runs under another user (an embedded PostgreSQL started by root runs as its own).
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
