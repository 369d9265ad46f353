/** One counter: requests in the current window. */
interface Window {
  startedAt: number;
  count: number;
}

export interface ChatLimits {
  /**
   * Counts one request from `userId` in `workspaceId` on `platform`: what was reached when it
   * may not go on (nothing is counted then), else undefined.
   */
  take: (platform: string, workspaceId: string, userId: string) => 'workspace' | 'user' | undefined;
}

/** Counters kept before the expired ones are swept. */
const sweepAt = 10_000;

/**
 * Per-workspace (team, guild) and per-person budgets per minute (docs/integrations.md,
 * "Limits"): a fixed window in this process's memory, so each instance behind a balancer
 * counts its own share. Made per app (no module-level state).
 */
export function createChatLimits(options: {
  perWorkspace: number;
  perUser: number;
  windowMs?: number;
  now?: () => number;
}): ChatLimits {
  const windowMs = options.windowMs ?? 60_000;
  const now = options.now ?? Date.now;
  const windows = new Map<string, Window>();
  const read = (key: string, at: number) => {
    const window = windows.get(key);
    if (window && at - window.startedAt < windowMs) return window;
    const fresh = { startedAt: at, count: 0 };
    if (windows.size >= sweepAt) {
      for (const [old, kept] of windows) if (at - kept.startedAt >= windowMs) windows.delete(old);
    }
    windows.set(key, fresh);
    return fresh;
  };
  return {
    take(platform, workspaceId, userId) {
      const at = now();
      const workspace = read(`${platform}\n${workspaceId}`, at);
      const user = read(`${platform}\n${workspaceId}\n${userId}`, at);
      if (workspace.count >= options.perWorkspace) return 'workspace';
      if (user.count >= options.perUser) return 'user';
      workspace.count += 1;
      user.count += 1;
      return undefined;
    },
  };
}
