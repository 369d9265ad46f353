import fs from 'node:fs';

/** One decoder process (media-worker.ts) as the import used it, from its start to its end. */
export interface DecoderMemory {
  pid: number;
  /** Largest resident memory of the decoder process itself. */
  peakRssBytes: number;
  /** Largest resident memory of the decoder and the encoders (ffmpeg) it ran, at one moment. */
  peakWithEncodersRssBytes: number;
  /** CPU time of the decoder and the encoders it waited for, as last seen (sampled). */
  cpuSeconds: number;
}

export interface DecodersMemory {
  /** Every decoder process seen (a pool replaces idle or killed ones), in the order they started. */
  decoders: DecoderMemory[];
  /** Largest peak of any one decoder (own RSS), and with its encoders. */
  peakRssBytes: number;
  peakWithEncodersRssBytes: number;
  /**
   * CPU time of the decoders (with their encoders) and of the importing process itself, over
   * the whole run: the later renditions too when the run waits for them.
   */
  decoderCpuSeconds: number;
  importerCpuSeconds: number;
}

/** User and system time of a process and of the children it has waited for, in seconds. */
function readCpuSeconds(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return [11, 12, 13, 14].reduce((sum, field) => sum + Number(fields[field]), 0) / 100;
  } catch {
    return undefined;
  }
}

/** User and system time of a process alone. */
function readOwnCpuSeconds(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/** Children of a process: every thread's `children` list (what process-tree.ts reads too). */
function readChildren(pid: number): number[] {
  let threads: string[];
  try {
    threads = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const thread of threads) {
    try {
      const list = fs.readFileSync(`/proc/${pid}/task/${thread}/children`, 'utf8');
      for (const child of list.split(' ').filter(Boolean).map(Number)) {
        if (!found.includes(child)) found.push(child);
      }
    } catch {
      // the thread ended while we looked
    }
  }
  return found;
}

function readRssBytes(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

function isDecoder(pid: number, known: Set<number>): boolean {
  if (known.has(pid)) return true;
  try {
    // Asked again until it says so: a child is first a copy of its parent, then `sh -c …
    // exec node … media-worker.ts`, and only then the decoder, under the same pid.
    if (!fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('media-worker')) return false;
  } catch {
    return false;
  }
  known.add(pid);
  return true;
}

/**
 * Samples the decoder processes under a process (the import child) until stopped: each one's
 * own peak RSS, and with its encoders. Only the tree under the root is read, so sampling costs
 * little of the two cores it measures.
 */
export function watchDecoderMemory(rootPid: number, intervalMs = 100) {
  const decoders = new Map<number, DecoderMemory>();
  const known = new Set<number>();
  const visit = (pid: number) => {
    for (const child of readChildren(pid)) {
      if (isDecoder(child, known)) {
        const own = readRssBytes(child);
        let withEncoders = own;
        const stack = readChildren(child);
        while (stack.length > 0) {
          const next = stack.pop()!;
          withEncoders += readRssBytes(next);
          stack.push(...readChildren(next));
        }
        const entry = decoders.get(child) ?? {
          pid: child,
          peakRssBytes: 0,
          peakWithEncodersRssBytes: 0,
          cpuSeconds: 0,
        };
        entry.cpuSeconds = readCpuSeconds(child) ?? entry.cpuSeconds;
        entry.peakRssBytes = Math.max(entry.peakRssBytes, own);
        entry.peakWithEncodersRssBytes = Math.max(entry.peakWithEncodersRssBytes, withEncoders);
        decoders.set(child, entry);
      } else {
        visit(child);
      }
    }
  };
  let importerCpuSeconds = 0;
  const sample = () => {
    importerCpuSeconds = readOwnCpuSeconds(rootPid) ?? importerCpuSeconds;
    visit(rootPid);
  };
  const timer = setInterval(sample, intervalMs);
  sample();
  return {
    stop: (): DecodersMemory => {
      clearInterval(timer);
      const list = [...decoders.values()];
      return {
        decoders: list,
        peakRssBytes: Math.max(0, ...list.map((entry) => entry.peakRssBytes)),
        peakWithEncodersRssBytes: Math.max(
          0,
          ...list.map((entry) => entry.peakWithEncodersRssBytes),
        ),
        decoderCpuSeconds: list.reduce((sum, entry) => sum + entry.cpuSeconds, 0),
        importerCpuSeconds,
      };
    },
  };
}
