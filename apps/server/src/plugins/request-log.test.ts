import type { IncomingMessage } from 'node:http';
import net from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/env.ts';
import { createLogger, resolveLogFormat } from '../server.ts';
import { startListeningApp } from '../test-support/oidc.ts';
import { rawRequest } from '../test-support/raw-http.ts';
import { signInAs } from '../test-support/sign-in.ts';
import { buildMultipart, makeAnimation, sameSiteHeaders } from '../test-support/uploads.ts';
import type { ListeningTestApp } from '../test-support/oidc.ts';

const apiKey = 'a-request-log-key-that-is-long-enough-42';

describe('request logs', () => {
  let app: ListeningTestApp;
  const lines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
          lines.push(JSON.parse(line) as Record<string, unknown>);
        }
        done();
      },
    });
    const logger = createLogger(loadConfig({ LOG_LEVEL: 'info' }), sink);
    app = await startListeningApp({ LOG_LEVEL: 'info', STICKY_API_KEYS: apiKey }, { logger });
  });
  afterAll(async () => {
    await app?.close();
  });

  const linesAbout = (path: string) =>
    lines.filter((line) => String((line.req as { url?: string } | undefined)?.url).includes(path));

  it('writes one line per request once it is answered: what was asked, the status, the time', async () => {
    await fetch(`${app.baseUrl}/v1/gifs/trending?api_key=${apiKey}&limit=1`);
    await fetch(`${app.baseUrl}/v1/gifs/no-such-route?api_key=${apiKey}`);
    await expect.poll(() => linesAbout('/v1/gifs/no-such-route').length).toBe(1);

    const [trending, ...more] = linesAbout('/v1/gifs/trending');
    expect(more).toEqual([]);
    expect(trending).toMatchObject({
      level: 30,
      msg: 'request completed',
      req: { method: 'GET', url: '/v1/gifs/trending?api_key=[redacted]&limit=1' },
      res: { statusCode: 200 },
    });
    expect(trending!.responseTime).toEqual(expect.any(Number));
    expect(trending!.reqId).toEqual(expect.any(String));
    expect(linesAbout('/v1/gifs/no-such-route')[0]).toMatchObject({ res: { statusCode: 404 } });
    expect(lines.some((line) => line.msg === 'incoming request')).toBe(false);
  });

  it('writes a line for a request the client gave up on before its answer', async () => {
    const { cookie } = await signInAs(app);
    const { body, contentType } = buildMultipart([
      { name: 'cut.gif', bytes: await makeAnimation({ format: 'gif', frames: 20, size: 200 }) },
    ]);
    // The server has the request (its route and hooks are known) before the client vanishes.
    const received = new Promise<void>((resolve) => {
      const onRequest = (request: IncomingMessage) => {
        if (request.url !== '/api/uploads') return;
        app.app.server.off('request', onRequest);
        resolve();
      };
      app.app.server.on('request', onRequest);
    });
    const socket = net.connect(Number(new URL(app.baseUrl).port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      rawRequest('POST', '/api/uploads', {
        ...sameSiteHeaders(app, cookie),
        'Content-Type': contentType,
        'Content-Length': String(body.length),
      }),
    );
    // Half the file: the upload's handler is reading it when the client vanishes.
    socket.write(body.subarray(0, Math.floor(body.length / 2)));
    await received;
    socket.destroy();
    await expect
      .poll(() => linesAbout('/api/uploads').map((line) => line.msg))
      .toContain('request aborted by the client');
  });
});

describe('request logs on a terminal', () => {
  it('are readable lines there and JSON anywhere else, unless LOG_FORMAT says', () => {
    expect(resolveLogFormat(loadConfig({}), true)).toBe('pretty');
    expect(resolveLogFormat(loadConfig({}), false)).toBe('json');
    expect(resolveLogFormat(loadConfig({ LOG_FORMAT: 'json' }), true)).toBe('json');
    expect(resolveLogFormat(loadConfig({ LOG_FORMAT: 'pretty' }), false)).toBe('pretty');
  });

  it('keep the one line per request to debug, so the start line stays on screen', async () => {
    for (const level of ['info', 'debug'] as const) {
      const lines: Array<Record<string, unknown>> = [];
      const sink = new Writable({
        write(chunk: Buffer, _encoding, done) {
          for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
            lines.push(JSON.parse(line) as Record<string, unknown>);
          }
          done();
        },
      });
      const logger = createLogger(loadConfig({ LOG_LEVEL: level }), sink);
      const app = await startListeningApp(
        { LOG_LEVEL: level, STICKY_API_KEYS: apiKey },
        { logger, requestLogLevel: 'debug' },
      );
      try {
        await fetch(`${app.baseUrl}/v1/gifs/trending?api_key=${apiKey}&limit=1`);
        // The first answer's line is written (synchronously, to this sink) before the server
        // reads the next request: once the second is answered, the first's line is there or
        // never will be.
        await fetch(`${app.baseUrl}/healthz`);
        const trendingLines = lines.filter(
          (line) =>
            line.msg === 'request completed' &&
            String((line.req as { url?: string }).url).startsWith('/v1/gifs/trending'),
        );
        expect(trendingLines.map((line) => line.level)).toEqual(level === 'info' ? [] : [20]);
      } finally {
        await app.close();
      }
    }
  });
});
