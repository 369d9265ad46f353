import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { TelegramUpdate } from './telegram-poller.ts';

/** One call the fake received: under which prefix (an instance's API base) and with what. */
export interface FakeCall {
  prefix: string;
  token: string;
  method: string;
  body: Record<string, unknown>;
}

/** What the fake answers `getUpdates` with next, instead of updates. */
export type FakeFailure = { kind: 'status'; status: number } | { kind: 'silence' };

/**
 * Telegram's Bot API for tests, on loopback, speaking its documented format
 * (/work/shared/reference/chat-platforms.md, "Telegram"): `POST /<prefix>/bot<token>/<method>`
 * with JSON, answered `{ok, result}`. `getUpdates` holds until an update at or past `offset`
 * is queued or its `timeout` passes, and answers 409 to a second consumer polling at once, as
 * Telegram does. Each instance under test gets its own prefix as TELEGRAM_API_BASE, so the
 * fake tells apart who polled.
 */
export interface FakeBotApi {
  url: string;
  calls: FakeCall[];
  /** getUpdates requests the fake received (every prefix), including those it failed. */
  pollsOf(prefix: string): number;
  /** Answered inline queries' bodies, in order. */
  answers(): Array<Record<string, unknown>>;
  queueInlineQuery(query: { id: string; query: string; offset?: string; fromId?: number }): void;
  /** The next getUpdates calls fail like this, once each, in order. */
  failNext(...failures: FakeFailure[]): void;
  /** Failures queued by `failNext` not served yet. */
  pendingFailures: number;
  /** Long polls whose client went away before the fake answered. */
  abandonedPolls: number;
  /** Long polls held now. */
  openPolls: number;
  /** Most long polls held at once. */
  mostOpenPolls: number;
  close(): Promise<void>;
}

export async function startFakeBotApi(): Promise<FakeBotApi> {
  const calls: FakeCall[] = [];
  const updates: TelegramUpdate[] = [];
  const failures: FakeFailure[] = [];
  let nextUpdateId = 1000;
  const waiting = new Set<() => void>();
  const sockets = new Set<Socket>();

  const state = {
    abandonedPolls: 0,
    openPolls: 0,
    mostOpenPolls: 0,
  };

  const send = (response: http.ServerResponse, status: number, body: object) => {
    if (response.writableEnded || response.destroyed) return;
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const match = /^\/([\w-]+)\/bot([^/]+)\/(\w+)$/.exec(request.url ?? '');
      if (!match || request.method !== 'POST') {
        send(response, 404, { ok: false, error_code: 404, description: 'Not Found' });
        return;
      }
      const [, prefix = '', token = '', method = ''] = match;
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as typeof body;
      } catch {
        send(response, 400, { ok: false, error_code: 400, description: 'Bad Request' });
        return;
      }
      calls.push({ prefix, token, method, body });
      if (method === 'answerInlineQuery') {
        send(response, 200, { ok: true, result: true });
        return;
      }
      if (method !== 'getUpdates') {
        send(response, 200, { ok: true, result: true });
        return;
      }
      const failure = failures.shift();
      if (failure?.kind === 'status') {
        send(response, failure.status, {
          ok: false,
          error_code: failure.status,
          description: 'Bad Gateway',
        });
        return;
      }
      const offset = typeof body.offset === 'number' ? body.offset : 0;
      // Updates before the offset are confirmed: Telegram forgets them.
      while (updates.length > 0 && updates[0]!.update_id < offset) updates.shift();
      if (failure?.kind === 'silence') return;
      if (state.openPolls > 0) {
        send(response, 409, {
          ok: false,
          error_code: 409,
          description: 'Conflict: terminated by other getUpdates request',
        });
        return;
      }
      const timeoutMs = (typeof body.timeout === 'number' ? body.timeout : 0) * 1000;
      const limit = typeof body.limit === 'number' ? body.limit : 100;
      state.openPolls += 1;
      state.mostOpenPolls = Math.max(state.mostOpenPolls, state.openPolls);
      let isDone = false;
      let isTimedOut = false;
      const finish = () => {
        if (isDone) return;
        isDone = true;
        state.openPolls -= 1;
        waiting.delete(answer);
        clearTimeout(timer);
      };
      const answer = () => {
        const ready = updates.filter((update) => update.update_id >= offset).slice(0, limit);
        if (ready.length === 0 && !isTimedOut) return;
        finish();
        send(response, 200, { ok: true, result: ready });
      };
      const timer = setTimeout(() => {
        isTimedOut = true;
        answer();
      }, timeoutMs);
      response.on('close', () => {
        if (!isDone) {
          state.abandonedPolls += 1;
          finish();
        }
      });
      waiting.add(answer);
      answer();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    pollsOf: (prefix) =>
      calls.filter((call) => call.prefix === prefix && call.method === 'getUpdates').length,
    answers: () =>
      calls.filter((call) => call.method === 'answerInlineQuery').map((call) => call.body),
    queueInlineQuery(query) {
      nextUpdateId += 1;
      updates.push({
        update_id: nextUpdateId,
        inline_query: {
          id: query.id,
          from: { id: query.fromId ?? 42 },
          query: query.query,
          offset: query.offset ?? '',
          chat_type: 'private',
        },
      });
      for (const answer of [...waiting]) answer();
    },
    failNext(...next) {
      failures.push(...next);
    },
    get pendingFailures() {
      return failures.length;
    },
    get abandonedPolls() {
      return state.abandonedPolls;
    },
    get openPolls() {
      return state.openPolls;
    },
    get mostOpenPolls() {
      return state.mostOpenPolls;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
