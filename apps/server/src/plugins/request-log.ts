import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export interface RequestLogOptions {
  level: 'info' | 'debug';
}

/**
 * One line per request at `info` (`debug` when the logs go to a terminal; docs/architecture.md,
 * "Runtime"), written when its answer
 * has gone: the request (method, URL with its secrets redacted, host, address), the status and
 * the time taken. Fastify's own logging writes two, one as the request comes in and one as it
 * completes; at a few thousand answers a second that doubles what an operator stores for
 * nothing the second line lacks. A request the client gives up on gets its own line, since
 * it never completes.
 */
export const requestLogPlugin = fp(async (app: FastifyInstance, { level }: RequestLogOptions) => {
  app.addHook('onResponse', async (request, reply) => {
    request.log[level](
      {
        req: request,
        res: { statusCode: reply.statusCode },
        responseTime: Math.round(reply.elapsedTime * 100) / 100,
      },
      'request completed',
    );
  });
  app.addHook('onRequestAbort', async (request) => {
    request.log[level]({ req: request }, 'request aborted by the client');
  });
});
