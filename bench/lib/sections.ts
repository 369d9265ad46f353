import type { MachineInfo } from './machine.ts';

/** The bench's sections, in the order `npm run bench` runs them; each writes one results file. */
export const sectionNames = ['quality', 'import', 'web', 'search', 'uploads', 'chat'] as const;
export type SectionName = (typeof sectionNames)[number];

export interface SectionFile<T = unknown> {
  section: SectionName;
  mode: 'full' | 'quick';
  date: string;
  commit: string;
  /** Uncommitted changes in the tree when it ran (others may be mid-edit). */
  isDirty: boolean;
  command: string;
  seconds: number;
  machine: MachineInfo;
  result?: T;
  error?: string;
}
