import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyServerOptions } from 'fastify';

export interface ListeningServer {
  port: number;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** For Fastify's `serverFactory`: the app answers on this server, already listening. */
  serverFactory: NonNullable<FastifyServerOptions['serverFactory']>;
  close: () => Promise<void>;
}

/**
 * An HTTP server listening on a port the system chose (port 0, read back), before the app
 * that will answer on it exists: for apps whose config must name their own URL (PUBLIC_URL,
 * an issuer's URL). Nothing can take the port in between, as nothing frees it.
 */
export async function listenOnFreePort(): Promise<ListeningServer> {
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    serverFactory: (handler, options) => {
      // What Fastify would set on a server of its own.
      const { requestTimeout, keepAliveTimeout } = options as {
        requestTimeout?: number;
        keepAliveTimeout?: number;
      };
      server.requestTimeout = requestTimeout ?? server.requestTimeout;
      server.keepAliveTimeout = keepAliveTimeout ?? server.keepAliveTimeout;
      server.on('request', handler);
      return server;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
