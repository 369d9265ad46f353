import fs from 'node:fs';

const pageSize = 4096;

interface ProcessSample {
  pid: number;
  parent: number;
  name: string;
  rssBytes: number;
}

function readAll(): ProcessSample[] {
  const samples: ProcessSample[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // comm may hold spaces and parentheses: the fields after the last ")" are fixed.
      const close = stat.lastIndexOf(')');
      const name = stat.slice(stat.indexOf('(') + 1, close);
      const fields = stat.slice(close + 2).split(' ');
      samples.push({
        pid: Number(entry),
        parent: Number(fields[1]),
        name,
        rssBytes: Number(fields[21]) * pageSize,
      });
    } catch {
      // the process ended while we looked
    }
  }
  return samples;
}

export interface TreeMemory {
  /** Largest sum of RSS over the Node processes of the tree at one moment. */
  peakNodeRssBytes: number;
  /** Largest RSS of any single Node process of the tree. */
  peakProcessRssBytes: number;
  /** Largest number of Node processes alive at once (the importer and its decoders). */
  peakNodeProcesses: number;
  /** Largest sum of RSS over PostgreSQL's processes (shared memory counted in each). */
  peakPostgresRssBytes: number;
}

/** Samples the memory of a process and all its descendants until stopped. */
export function watchProcessTree(rootPid: number, intervalMs = 100) {
  const memory: TreeMemory = {
    peakNodeRssBytes: 0,
    peakProcessRssBytes: 0,
    peakNodeProcesses: 0,
    peakPostgresRssBytes: 0,
  };
  const sample = () => {
    const all = readAll();
    const children = new Map<number, ProcessSample[]>();
    for (const process of all) {
      const list = children.get(process.parent) ?? [];
      list.push(process);
      children.set(process.parent, list);
    }
    const root = all.find((process) => process.pid === rootPid);
    if (!root) return;
    const tree: ProcessSample[] = [];
    const stack = [root];
    while (stack.length > 0) {
      const next = stack.pop()!;
      tree.push(next);
      stack.push(...(children.get(next.pid) ?? []));
    }
    const isPostgres = (process: ProcessSample) =>
      process.name.startsWith('postgres') || process.name.startsWith('postmaster');
    const node = tree.filter((process) => !isPostgres(process));
    const postgres = tree.filter(isPostgres);
    const sum = (list: ProcessSample[]) => list.reduce((total, p) => total + p.rssBytes, 0);
    memory.peakNodeRssBytes = Math.max(memory.peakNodeRssBytes, sum(node));
    memory.peakPostgresRssBytes = Math.max(memory.peakPostgresRssBytes, sum(postgres));
    memory.peakNodeProcesses = Math.max(memory.peakNodeProcesses, node.length);
    for (const process of node) {
      memory.peakProcessRssBytes = Math.max(memory.peakProcessRssBytes, process.rssBytes);
    }
  };
  const timer = setInterval(sample, intervalMs);
  sample();
  return {
    stop: (): TreeMemory => {
      clearInterval(timer);
      sample();
      return { ...memory };
    },
  };
}
