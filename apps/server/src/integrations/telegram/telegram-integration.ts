import { LRUCache } from 'lru-cache';
import type { QueryDeps } from '../../catalog/query/query-caches.ts';
import { isLoopbackHost } from '../../config/env-values.ts';
import { createBotApi } from './bot-api.ts';
import type { BotApi } from './bot-api.ts';
import { answerInlineQuery, limitedAnswer } from './inline-answers.ts';
import type { InlineAnswer } from './inline-answers.ts';
import { createPollLeader } from './poll-leader.ts';
import { createTelegramPoller } from './telegram-poller.ts';
import type { TelegramInlineQuery, TelegramLogger, TelegramUpdate } from './telegram-poller.ts';

/** What /admin → Integrations shows of a platform. */
export interface TelegramStatus {
  platform: 'telegram';
  isConfigured: boolean;
  /** None: the bot polls Telegram, nothing calls Sticky. */
  endpoints: string[];
  /** The last update this instance received (an update comes over our own call: verified). */
  lastRequest: { at: string; isVerified: boolean } | null;
  setupSteps: string[];
}

export interface TelegramIntegration {
  /** Starts polling when the bot is configured (nothing otherwise); returns at once. */
  start(): void;
  readStatus(): TelegramStatus;
  close(): Promise<void>;
}

export interface TelegramIntegrationOptions {
  /** How often an instance that does not poll tries the lock without being told. */
  leaderRetryMs?: number;
  /** Seconds a long poll is held; the first pause after a failure (tests: short). */
  pollSeconds?: number;
  backoffMs?: number;
  maxBackoffMs?: number;
  /** What a Bot API call may take besides a long poll's hold. */
  requestTimeoutMs?: number;
  /** Told of each batch of updates: /admin → Integrations' last request, shared by instances. */
  onUpdates?: () => Promise<void>;
}

/** Inline queries of one batch answered at once: the work one poll hands the database. */
const answersAtOnce = 4;

/** Where Telegram fetches the files from: a host only this machine or network reaches. */
function isPrivateHost(hostname: string): boolean {
  return (
    isLoopbackHost(hostname) ||
    /^(10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|169\.254\.)/.test(hostname) ||
    /\.(local|internal|lan|home\.arpa)$/i.test(hostname) ||
    (!hostname.includes('.') && !hostname.includes(':'))
  );
}

function describeSetup(deps: Pick<QueryDeps, 'config'>, isConfigured: boolean): string[] {
  const mediaBase = deps.config.mediaPublicUrl ?? `${deps.config.publicUrl}/media`;
  const isReachable = !isPrivateHost(new URL(mediaBase).hostname);
  return [
    'In Telegram, send /newbot to @BotFather, pick a name and a username ending in "bot"; it answers with the bot\'s token.',
    'Send /setinline to @BotFather, choose the bot and give the placeholder shown in the message field (for example "Search GIFs…").',
    isConfigured
      ? 'TELEGRAM_BOT_TOKEN is set: Sticky polls Telegram for inline queries (no URL of Sticky needs to be reachable for that).'
      : 'Set TELEGRAM_BOT_TOKEN to that token and restart Sticky: it polls Telegram, so no inbound URL is needed.',
    isReachable
      ? `Telegram fetches each GIF itself from ${mediaBase}: it must stay reachable from the internet over https.`
      : `Telegram fetches each GIF itself, and ${mediaBase} is not reachable from the internet: set PUBLIC_URL (or MEDIA_PUBLIC_URL) to a public https URL, or results will not load.`,
    'In any chat, type @yourbot followed by words (or nothing, for trending) and pick a GIF.',
  ];
}

/** Telegram as /admin → Integrations lists it (the last request is read from the log). */
export function describeTelegram(config: QueryDeps['config'], status: TelegramStatus) {
  return {
    platform: status.platform,
    name: 'Telegram',
    isConfigured: status.isConfigured,
    endpoints: [],
    setupSteps: status.setupSteps,
    settings: [
      { name: 'TELEGRAM_BOT_TOKEN', isSet: config.integrations.telegram !== undefined },
      { name: 'PUBLIC_URL', isSet: true },
    ],
    notes: [
      'Telegram fetches each GIF itself: PUBLIC_URL (or MEDIA_PUBLIC_URL) must be reachable from the internet over https.',
      'Only the instance that holds the polling lock notes updates; the bot needs no inbound URL.',
    ],
  };
}

/**
 * The Telegram inline bot of one app (docs/integrations.md, "Telegram"): created with the app's
 * services and closed with them. Off (a status and nothing else) without TELEGRAM_BOT_TOKEN.
 */
export function createTelegramIntegration(
  deps: QueryDeps,
  log: TelegramLogger,
  options: TelegramIntegrationOptions = {},
): TelegramIntegration {
  const settings = deps.config.integrations.telegram;
  let lastRequest: TelegramStatus['lastRequest'] = null;
  const readStatus = (): TelegramStatus => ({
    platform: 'telegram',
    isConfigured: settings !== undefined,
    endpoints: [],
    lastRequest,
    setupSteps: describeSetup(deps, settings !== undefined),
  });
  if (!settings) {
    return { start: () => {}, readStatus, close: async () => {} };
  }

  const api: BotApi = createBotApi({
    apiBase: settings.apiBase,
    token: settings.botToken,
    requestTimeoutMs: options.requestTimeoutMs,
  });
  // Inline queries per Telegram user in the current minute; bounded, forgotten after it.
  const queriesByUser = new LRUCache<number, { count: number }>({ max: 50_000, ttl: 60_000 });
  const isOverLimit = (userId: number) => {
    const entry = queriesByUser.get(userId);
    if (!entry) {
      queriesByUser.set(userId, { count: 1 });
      return false;
    }
    entry.count += 1;
    return entry.count > settings.queriesPerUserPerMinute;
  };

  const answer = async (query: TelegramInlineQuery) => {
    let body: InlineAnswer;
    try {
      body = isOverLimit(query.from.id)
        ? limitedAnswer()
        : await answerInlineQuery(deps, {
            query: typeof query.query === 'string' ? query.query : '',
            offset: typeof query.offset === 'string' ? query.offset : '',
            rating: deps.config.integrations.rating,
          });
    } catch (error) {
      // The query goes unanswered (Telegram shows nothing); the next keystroke asks again.
      log.warn({ err: error }, 'Telegram: could not search for an inline query');
      return;
    }
    await api.call('answerInlineQuery', { inline_query_id: query.id, ...body }).catch((error) => {
      log.warn({}, `Telegram: could not answer an inline query: ${api.redact(String(error))}`);
    });
  };

  const handleUpdates = async (updates: TelegramUpdate[]) => {
    lastRequest = { at: new Date().toISOString(), isVerified: true };
    await options.onUpdates?.().catch((error: unknown) => {
      log.warn({ err: error }, 'Telegram: could not note the last update for /admin');
    });
    const queries = updates.flatMap((update) =>
      update.inline_query && typeof update.inline_query.id === 'string'
        ? [update.inline_query]
        : [],
    );
    for (let start = 0; start < queries.length; start += answersAtOnce) {
      await Promise.all(queries.slice(start, start + answersAtOnce).map(answer));
    }
  };

  const poller = createTelegramPoller({
    api,
    leader: createPollLeader({
      database: deps.database,
      botToken: settings.botToken,
      retryMs: options.leaderRetryMs,
    }),
    log,
    handleUpdates,
    pollSeconds: options.pollSeconds,
    backoffMs: options.backoffMs,
    maxBackoffMs: options.maxBackoffMs,
  });
  let isStarted = false;
  return {
    start() {
      if (isStarted) return;
      isStarted = true;
      const mediaBase = deps.config.mediaPublicUrl ?? deps.config.publicUrl;
      if (isPrivateHost(new URL(mediaBase).hostname)) {
        log.warn(
          { mediaUrl: mediaBase },
          `Telegram: TELEGRAM_BOT_TOKEN is set but media URLs point at ${mediaBase}, which Telegram cannot reach: set PUBLIC_URL (or MEDIA_PUBLIC_URL) to a public https URL, or inline results will not load`,
        );
      }
      poller.start();
    },
    readStatus,
    close: () => poller.close(),
  };
}
