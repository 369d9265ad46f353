import type { RenderPhase } from './rendition-plan.ts';

// What a decoder child process (media-processor.ts) may use: its environment, memory and CPU time.

/**
 * What a decoder process may see of our environment: nothing secret (SESSION_SECRET, client
 * secrets, DATABASE_URL), only what Node and libvips need to run. docs/security.md, "Media
 * processing".
 */
const CHILD_ENV_NAMES = ['PATH', 'TMPDIR', 'LANG', 'LC_ALL', 'TZ', 'NODE_ENV'] as const;

export function buildWorkerEnv(
  env: NodeJS.ProcessEnv,
  extra: Record<string, string>,
): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of CHILD_ENV_NAMES) {
    const value = env[name];
    if (value !== undefined) kept[name] = value;
  }
  return { ...kept, ...extra };
}

/**
 * The hard limit (RLIMIT_DATA) of a decoder process: its sampled budget and a quarter, plus
 * what an idle Node worker already counts there without using it (docs/catalog.md, "Rendition
 * settings").
 */
export function hardMemoryLimitBytes(maxMemoryBytes: number): number {
  return Math.ceil(maxMemoryBytes * 1.25) + 1024 * 1024 * 1024;
}

/**
 * A phase's CPU allowance over the ready one's: the later renditions include full-size and
 * 15-second videos, several times the work of the tiles.
 */
export const PHASE_CPU_FACTOR: Record<RenderPhase, number> = { ready: 1, later: 3, all: 4 };

/**
 * Extra CPU time for a file that passed validation, from its decoded pixels (width × height ×
 * frames), so a long but legitimate animation is not cut short; a good margin over what small
 * animations and long recordings were measured to cost (docs/catalog.md, "Rendition settings").
 */
export function cpuAllowanceMs(pixels: number): number {
  const megapixels = pixels / 1e6;
  return Math.ceil(1500 * Math.min(megapixels, 10) + 150 * Math.max(0, megapixels - 10));
}
