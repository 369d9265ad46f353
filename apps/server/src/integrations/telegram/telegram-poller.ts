import { setTimeout as sleep } from 'node:timers/promises';
import type { BotApi } from './bot-api.ts';
import { BotApiError } from './bot-api.ts';
import type { PollLeader } from './poll-leader.ts';

/** What the poller logs through (pino's shape). Nothing logged holds the token. */
export interface TelegramLogger {
  info: (object: object, message?: string) => void;
  warn: (object: object, message?: string) => void;
}

/** The part of Telegram's Update the bot asks for (`allowed_updates: ["inline_query"]`). */
export interface TelegramUpdate {
  update_id: number;
  inline_query?: TelegramInlineQuery;
}

export interface TelegramInlineQuery {
  id: string;
  from: { id: number };
  query: string;
  offset: string;
  chat_type?: string;
}

export interface PollerOptions {
  api: BotApi;
  leader: PollLeader;
  log: TelegramLogger;
  /** Handles one batch of updates; the next poll waits for it (so the work is bounded). */
  handleUpdates: (updates: TelegramUpdate[]) => Promise<void>;
  /** Seconds Telegram holds a `getUpdates` when nothing is waiting. */
  pollSeconds?: number;
  /** The first pause after a failure; doubled after each one in a row, up to `maxBackoffMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
}

export interface TelegramPoller {
  start(): void;
  /** Stops at once (an open long poll is aborted), confirms what was handled, lets go of the lock. */
  close(): Promise<void>;
}

/**
 * Long polling of `getUpdates` (docs/integrations.md, "Telegram"): each call names the next
 * `offset`, which confirms every update before it, so an update is handed out again only when
 * the poller stopped before asking for more. Failures (no answer, 5xx, 429, 409 while another
 * consumer polls) are logged in one line each and retried after a growing pause.
 */
export function createTelegramPoller(options: PollerOptions): TelegramPoller {
  const pollSeconds = options.pollSeconds ?? 25;
  const backoffMs = options.backoffMs ?? 1_000;
  const maxBackoffMs = options.maxBackoffMs ?? 60_000;
  const { api, leader, log } = options;
  const stopping = new AbortController();
  const signal = stopping.signal;
  let running: Promise<void> | undefined;
  /** The offset that confirms every update handled so far. */
  let offset: number | undefined;
  let isUnconfirmed = false;

  const pollOnce = async () => {
    const updates = await api.call<TelegramUpdate[]>(
      'getUpdates',
      {
        ...(offset === undefined ? {} : { offset }),
        timeout: pollSeconds,
        limit: 100,
        allowed_updates: ['inline_query'],
      },
      { signal, holdMs: pollSeconds * 1000 },
    );
    if (!Array.isArray(updates) || updates.length === 0) {
      isUnconfirmed = false;
      return;
    }
    for (const update of updates) {
      if (Number.isSafeInteger(update.update_id)) {
        offset = Math.max(offset ?? 0, update.update_id + 1);
      }
    }
    isUnconfirmed = true;
    await options.handleUpdates(updates);
  };

  const pollWhileLeader = async () => {
    let failures = 0;
    while (!signal.aborted && (await leader.isStillLeader())) {
      try {
        await pollOnce();
        failures = 0;
      } catch (error) {
        if (signal.aborted) return;
        failures += 1;
        const retryAfterMs =
          error instanceof BotApiError && error.retryAfterSeconds
            ? error.retryAfterSeconds * 1000
            : 0;
        const pauseMs = Math.max(
          retryAfterMs,
          Math.min(maxBackoffMs, backoffMs * 2 ** (failures - 1)) * (0.8 + Math.random() * 0.4),
        );
        const code = error instanceof BotApiError ? error.code : 0;
        const reason = api.redact(error instanceof Error ? error.message : String(error));
        log.warn(
          { code, failures, retryInMs: Math.round(pauseMs) },
          code === 409
            ? `Telegram: another consumer polls this bot (a webhook, or another server on another database): ${reason}`
            : `Telegram: polling failed, trying again: ${reason}`,
        );
        await sleep(pauseMs, undefined, { signal }).catch(() => {});
      }
    }
  };

  const run = async () => {
    while (!signal.aborted) {
      if (!(await leader.waitForLeadership(signal))) return;
      log.info({}, 'Telegram: this instance polls the bot for inline queries');
      await pollWhileLeader();
      if (!signal.aborted) log.warn({}, 'Telegram: lost the polling lock; waiting to poll again');
    }
  };

  return {
    start() {
      running ??= run().catch((error: unknown) => {
        log.warn({}, `Telegram: the poller stopped: ${api.redact(String(error))}`);
      });
    },
    async close() {
      stopping.abort();
      await running;
      // Confirms the last batch, so the next poller does not answer it again (a short call).
      if (isUnconfirmed && offset !== undefined && (await leader.isStillLeader())) {
        await api
          .call(
            'getUpdates',
            { offset, timeout: 0, limit: 1, allowed_updates: ['inline_query'] },
            { signal: AbortSignal.timeout(2_000) },
          )
          .catch(() => {});
      }
      await leader.release();
    },
  };
}
