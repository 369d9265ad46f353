import fs from 'node:fs';

// A decoder and its encoders, watched and stopped as one (media-processor.ts), from Linux's /proc.

/** Linux reports process CPU time in clock ticks of 1/100 s. */
const TICK_MS = 10;

/**
 * CPU time (user + system, all threads, and children it has waited for) and resident memory
 * of a process, from /proc.
 */
function readProcessUsage(pid: number): { cpuMs: number; rssBytes: number } | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may contain spaces: fields are counted after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = [11, 12, 13, 14].reduce((sum, field) => sum + Number(fields[field]), 0);
    const cpuMs = ticks * TICK_MS;
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const rssBytes = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
    return Number.isFinite(cpuMs) && Number.isFinite(rssBytes) ? { cpuMs, rssBytes } : undefined;
  } catch {
    return undefined;
  }
}

/** Every live descendant of a process (children of each of its threads, recursively). */
export function listDescendants(pid: number): number[] {
  const found: number[] = [];
  const visit = (parent: number) => {
    let threads: string[];
    try {
      threads = fs.readdirSync(`/proc/${parent}/task`);
    } catch {
      return;
    }
    for (const thread of threads) {
      let children = '';
      try {
        children = fs.readFileSync(`/proc/${parent}/task/${thread}/children`, 'utf8');
      } catch {
        continue;
      }
      for (const child of children.split(' ').filter(Boolean).map(Number)) {
        if (!found.includes(child)) {
          found.push(child);
          visit(child);
        }
      }
    }
  };
  visit(pid);
  return found;
}

/** A process with its descendants (the worker and its encoders): CPU and memory summed. */
export function readTreeUsage(pid: number): { cpuMs: number; rssBytes: number } | undefined {
  const own = readProcessUsage(pid);
  if (!own) return undefined;
  for (const descendant of listDescendants(pid)) {
    const usage = readProcessUsage(descendant);
    if (!usage) continue;
    own.cpuMs += usage.cpuMs;
    own.rssBytes += usage.rssBytes;
  }
  return own;
}

/** Kills a process and every descendant of it (SIGKILL). */
export function killTree(pid: number | undefined): void {
  if (pid === undefined) return;
  // Descendants first: once the worker is gone they are no longer findable as its children.
  for (const target of [...listDescendants(pid), pid]) {
    try {
      process.kill(target, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}
