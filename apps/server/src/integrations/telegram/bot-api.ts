/**
 * Telegram's Bot API over `fetch` (docs/integrations.md, "Telegram"): `POST {apiBase}/bot<token>/
 * <method>` with a JSON body, answered `{ok, result}` or `{ok: false, error_code, description}`.
 * The URL holds the token, so no URL and no raw error leaves this module: failures are
 * `BotApiError`s whose text has the token replaced.
 */

export interface BotApiOptions {
  apiBase: string;
  token: string;
  /** What a call may take besides a long poll's own hold (connect, send, read the answer). */
  requestTimeoutMs?: number;
}

export interface CallOptions {
  /** Aborts the call (the app is closing). */
  signal?: AbortSignal;
  /** Added to the request timeout: a long poll's `timeout` seconds. */
  holdMs?: number;
}

export class BotApiError extends Error {
  constructor(
    message: string,
    /** Telegram's `error_code`, or the HTTP status; 0 when no answer came. */
    readonly code: number,
    /** Seconds Telegram asked to wait (429 Too Many Requests). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'BotApiError';
  }
}

export interface BotApi {
  call<T>(method: string, body: object, options?: CallOptions): Promise<T>;
  /** The text with the token replaced: for any text that might hold a URL. */
  redact(text: string): string;
}

interface BotApiAnswer {
  ok?: boolean;
  result?: unknown;
  error_code?: number;
  description?: string;
  parameters?: { retry_after?: number };
}

export function createBotApi(options: BotApiOptions): BotApi {
  const base = options.apiBase.replace(/\/+$/, '');
  const requestTimeoutMs = options.requestTimeoutMs ?? 10_000;
  const redact = (text: string) => text.split(options.token).join('<token>');
  return {
    redact,
    async call<T>(method: string, body: object, callOptions: CallOptions = {}) {
      const timeout = AbortSignal.timeout(requestTimeoutMs + (callOptions.holdMs ?? 0));
      const signal = callOptions.signal ? AbortSignal.any([callOptions.signal, timeout]) : timeout;
      let response: Response;
      try {
        response = await fetch(`${base}/bot${options.token}/${method}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
          signal,
        });
      } catch (error) {
        const cause = (error as { cause?: { code?: string; message?: string } }).cause;
        const reason = timeout.aborted
          ? 'timed out'
          : (cause?.code ?? cause?.message ?? (error as Error).message);
        throw new BotApiError(redact(`${method}: no answer (${reason})`), 0);
      }
      let answer: BotApiAnswer | undefined;
      try {
        answer = (await response.json()) as BotApiAnswer;
      } catch {
        answer = undefined;
      }
      if (response.ok && answer?.ok === true) return answer.result as T;
      const code = answer?.error_code ?? response.status;
      const description = answer?.description ?? `HTTP ${response.status}`;
      throw new BotApiError(
        redact(`${method}: ${code} ${description}`.slice(0, 300)),
        code,
        answer?.parameters?.retry_after,
      );
    },
  };
}
