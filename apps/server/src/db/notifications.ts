import pg from 'pg';

export interface ChannelHandlers {
  /**
   * The channel is listened to again (first connection or after a reconnect); `query` runs a
   * statement on the listening connection, e.g. to read the state the notifications will keep
   * up to date.
   */
  onListening: (query: ListenerQuery) => Promise<void>;
  onNotification: (payload: string) => void;
  /** Notifications may have been missed from now on (the connection was lost). */
  onLost: () => void;
}

/** A statement on the listening connection, after those sent before it. */
export type ListenerQuery = <Row extends pg.QueryResultRow = pg.QueryResultRow>(
  text: string,
) => Promise<pg.QueryResult<Row>>;

export interface NotificationListener {
  /** Subscribes; the function returned unsubscribes (UNLISTEN when nobody is left). */
  listen: (channel: string, handlers: ChannelHandlers) => () => void;
  close: () => Promise<void>;
}

const reconnectDelayMs = 1_000;

/**
 * One dedicated connection that LISTENs (a pooled one cannot: it is handed to others between
 * queries). Connected on the first `listen`; when the connection is lost every channel hears
 * `onLost` and it reconnects after a pause, for as long as the listener is open.
 */
export function createNotificationListener(config: pg.ClientConfig): NotificationListener {
  const channels = new Map<string, Set<ChannelHandlers>>();
  const everyHandler = () => [...channels.values()].flatMap((handlers) => [...handlers]);
  let client: pg.Client | undefined;
  let connecting: Promise<void> | undefined;
  let retry: NodeJS.Timeout | undefined;
  let isClosed = false;
  // One statement at a time on the connection: pg queues concurrent ones itself but warns
  // that it will stop (LISTENs, UNLISTENs and the handlers' reads overlap on start and close).
  const tails = new WeakMap<pg.Client, Promise<unknown>>();
  const queryOn = <Row extends pg.QueryResultRow>(target: pg.Client, text: string) => {
    const result = (tails.get(target) ?? Promise.resolve())
      .catch(() => {})
      .then(() => target.query<Row>(text));
    tails.set(target, result);
    return result;
  };

  const loseConnection = (lost: pg.Client) => {
    if (client !== lost) return;
    client = undefined;
    lost.removeAllListeners('notification');
    lost.end().catch(() => {});
    for (const handlers of everyHandler()) handlers.onLost();
    scheduleReconnect();
  };

  const scheduleReconnect = () => {
    if (isClosed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, reconnectDelayMs);
    retry.unref();
  };

  const subscribe = async (target: pg.Client, channel: string, handlers: ChannelHandlers) => {
    await queryOn(target, `LISTEN ${pg.escapeIdentifier(channel)}`);
    await handlers.onListening((text) => queryOn(target, text));
  };

  const connect = (): Promise<void> => {
    connecting ??= (async () => {
      const next = new pg.Client(config);
      next.on('error', () => loseConnection(next));
      next.on('end', () => loseConnection(next));
      next.on('notification', (message) => {
        for (const handlers of channels.get(message.channel) ?? []) {
          handlers.onNotification(message.payload ?? '');
        }
      });
      try {
        await next.connect();
        if (isClosed) {
          await next.end();
          return;
        }
        client = next;
        for (const [channel, subscribers] of channels) {
          for (const handlers of subscribers) await subscribe(next, channel, handlers);
        }
      } catch {
        if (client === next) loseConnection(next);
        else {
          next.end().catch(() => {});
          scheduleReconnect();
        }
      }
    })().finally(() => {
      connecting = undefined;
    });
    return connecting;
  };

  return {
    listen: (channel, handlers) => {
      const subscribers = channels.get(channel) ?? new Set<ChannelHandlers>();
      channels.set(channel, subscribers);
      subscribers.add(handlers);
      if (client && !connecting) {
        const current = client;
        subscribe(current, channel, handlers).catch(() => loseConnection(current));
      } else if (!connecting) {
        void connect();
      }
      return () => {
        subscribers.delete(handlers);
        if (subscribers.size > 0 || channels.get(channel) !== subscribers) return;
        channels.delete(channel);
        if (client) queryOn(client, `UNLISTEN ${pg.escapeIdentifier(channel)}`).catch(() => {});
      };
    },
    close: async () => {
      isClosed = true;
      clearTimeout(retry);
      await connecting;
      const current = client;
      client = undefined;
      if (!current) return;
      // The UNLISTENs of services closed just before go out before the connection ends.
      await tails.get(current)?.catch(() => {});
      await current.end().catch(() => {});
    },
  };
}
