import fs from 'node:fs';
import os from 'node:os';

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
  /** 1-minute load average when the run started and ended: other work on a shared machine. */
  loadAverageAtStart: number;
  loadAverageAtEnd?: number;
}

function readCpuModel(): string {
  const model = os.cpus()[0]?.model?.trim();
  if (model) return model;
  try {
    const line = fs
      .readFileSync('/proc/cpuinfo', 'utf8')
      .split('\n')
      .find((row) => row.startsWith('model name'));
    return line?.split(':')[1]?.trim() ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

export function describeMachine(): MachineInfo {
  return {
    cpuModel: readCpuModel(),
    cores: os.availableParallelism(),
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    loadAverageAtStart: Math.round(os.loadavg()[0]! * 100) / 100,
  };
}

export function currentLoadAverage(): number {
  return Math.round(os.loadavg()[0]! * 100) / 100;
}
