import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCatalogItems } from '../test-support/catalog-fixtures.ts';
import { startListeningApp } from '../test-support/oidc.ts';
import type { ListeningTestApp } from '../test-support/oidc.ts';
import { signInAs } from '../test-support/sign-in.ts';
import { rawRequest, sendRaw } from '../test-support/raw-http.ts';

/**
 * Oversized bodies and headers, bad JSON and wrong content types, over a real socket: each is
 * a 4xx that says what was wrong, in the envelope of the path it was sent to.
 */
describe('oversized and malformed requests', () => {
  let testApp: ListeningTestApp;
  let port: number;
  let cookie: string;
  let itemId: string;
  const writeHeaders = () => ({
    Origin: testApp.baseUrl,
    'Sec-Fetch-Site': 'same-origin',
    Cookie: cookie,
  });

  beforeAll(async () => {
    testApp = await startListeningApp();
    port = Number(new URL(testApp.baseUrl).port);
    cookie = (await signInAs(testApp)).cookie;
    [itemId] = (await insertCatalogItems(testApp.database, [{ title: 'Dancing cat' }])) as [string];
  });
  const countEvents = async () =>
    (await testApp.database.pool.query('SELECT count(*)::int AS n FROM item_events')).rows[0].n;
  afterAll(async () => {
    await testApp?.close();
  });

  const send = (method: string, path: string, headers: Record<string, string>, body = '') =>
    sendRaw(port, rawRequest(method, path, headers, body));
  const apiError = (body: string) =>
    JSON.parse(body) as { error: { code: string; message: string } };

  it('refuses a body over 64 KiB with 413 and says so', async () => {
    const ids = Array.from({ length: 8000 }, (_, i) => `id${i}`);
    const response = await send(
      'POST',
      '/api/favorites/merge',
      { ...writeHeaders(), 'Content-Type': 'application/json' },
      JSON.stringify({ ids }),
    );
    expect(response.status).toBe(413);
    expect(apiError(response.body).error).toEqual({
      code: 'payload_too_large',
      message: 'Request body is too large.',
    });
  });

  it('refuses an oversized chunked body with 413, without reading it all', async () => {
    const chunk = 'a'.repeat(16 * 1024);
    const chunks = Array.from({ length: 8 }, () => `${(16 * 1024).toString(16)}\r\n${chunk}\r\n`);
    const head = rawRequest('POST', '/api/events', {
      ...writeHeaders(),
      'Content-Type': 'application/json',
      'Transfer-Encoding': 'chunked',
    });
    const response = await sendRaw(port, `${head}${chunks.join('')}0\r\n\r\n`);
    expect(response.status).toBe(413);
    expect(apiError(response.body).error.message).toBe('Request body is too large.');
  });

  it('refuses a Content-Length over the limit before the body arrives', async () => {
    const head = rawRequest('POST', '/api/events', {
      ...writeHeaders(),
      'Content-Type': 'application/json',
      'Content-Length': String(10 * 1024 * 1024),
    });
    const response = await sendRaw(port, head);
    expect(response.status).toBe(413);
  });

  it('refuses headers over 16 KiB with 431 and a message', async () => {
    const response = await send('GET', '/v1/gifs/trending', { 'X-Padding': 'a'.repeat(20_000) });
    expect(response.status).toBe(431);
    expect(JSON.parse(response.body).message).toBe('Exceeded maximum allowed HTTP header size');
  });

  it('refuses an overlong URL with 431 (request line) or 414 (path parameter)', async () => {
    const huge = await send('GET', `/v1/gifs/search?q=${'a'.repeat(20_000)}`, {});
    expect(huge.status).toBe(431);
    const longParam = await send('GET', `/v1/gifs/${'a'.repeat(300)}`, { Cookie: cookie });
    expect(longParam.status).toBe(414);
    expect(JSON.parse(longParam.body).meta).toMatchObject({
      status: 414,
      msg: 'A part of the URL is too long.',
    });
    const longQuery = await send('GET', `/v1/gifs/search?q=${'a'.repeat(500)}`, { Cookie: cookie });
    expect(longQuery.status).toBe(414);
    expect(JSON.parse(longQuery.body).meta.msg).toBe('q must be at most 50 characters');
  });

  it('answers a broken %-escape in the path with 400 in the right envelope and safe headers', async () => {
    const v1 = await send('GET', '/v1/gifs/%E0%A4%A', { Cookie: cookie });
    expect(v1.status).toBe(400);
    expect(JSON.parse(v1.body).meta).toMatchObject({
      status: 400,
      msg: 'The URL is not valid: it has a broken %-escape.',
    });
    expect(JSON.parse(v1.body).meta.response_id).not.toBe('');
    expect(v1.headers['x-content-type-options']).toBe('nosniff');
    const api = await send('DELETE', '/api/favorites/%zz', writeHeaders());
    expect(api.status).toBe(400);
    expect(apiError(api.body).error.code).toBe('bad_request');
  });

  it('refuses bad JSON with 400 and says the body is not valid JSON', async () => {
    for (const body of ['{', '{"ids": [}', "{'ids': []}", '\u0000', '{"ids":["a"]}}']) {
      const response = await send(
        'POST',
        '/api/favorites/merge',
        { ...writeHeaders(), 'Content-Type': 'application/json' },
        body,
      );
      expect(response.status, body).toBe(400);
      expect(apiError(response.body).error.message, body).toBe('Request body is not valid JSON.');
    }
  });

  it('refuses an empty JSON body and a JSON body of the wrong shape with 400', async () => {
    const empty = await send(
      'POST',
      '/api/events',
      { ...writeHeaders(), 'Content-Type': 'application/json', 'Content-Length': '0' },
      '',
    );
    expect(empty.status).toBe(400);
    expect(apiError(empty.body).error.message).not.toBe('');
    const wrong = await send(
      'POST',
      '/api/events',
      { ...writeHeaders(), 'Content-Type': 'application/json' },
      '{"type":"like","id":"abc"}',
    );
    expect(wrong.status).toBe(400);
    expect(apiError(wrong.body).error.message).toMatch(/^Invalid request body: type: /);
  });

  it('refuses prototype-poisoning JSON with 400', async () => {
    const response = await send(
      'POST',
      '/api/favorites/merge',
      { ...writeHeaders(), 'Content-Type': 'application/json' },
      '{"ids":[],"__proto__":{"isAdmin":true}}',
    );
    expect(response.status).toBe(400);
    expect(({} as { isAdmin?: boolean }).isAdmin).toBeUndefined();
  });

  it('refuses a body of the wrong content type with 415 naming the type', async () => {
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
    ]) {
      const response = await send(
        'POST',
        '/api/events',
        { ...writeHeaders(), 'Content-Type': type },
        'type=view&id=abc',
      );
      expect(response.status, type).toBe(415);
      const { error } = apiError(response.body);
      expect(error.code).toBe('unsupported_media_type');
      expect(error.message).toMatch(/^Send the request body as JSON/);
      expect(error.message).toContain(type.split(';')[0]);
    }
  });

  it('refuses a Content-Length shorter than the body: only what it declares is read', async () => {
    const body = JSON.stringify({ type: 'view', id: itemId });
    const lying = await send(
      'POST',
      '/api/events',
      { ...writeHeaders(), 'Content-Type': 'application/json', 'Content-Length': '9' },
      body,
    );
    // Refused whichever comes first: our JSON refusal of the 9 bytes as a body, or Node's
    // refusal of the rest read as a next request. Either way nothing was counted.
    expect(lying.status).toBe(400);
    expect(await countEvents()).toBe(0);
    // The control: the same request, told truly, is counted.
    const honest = await send(
      'POST',
      '/api/events',
      { ...writeHeaders(), 'Content-Type': 'application/json' },
      body,
    );
    expect(honest.status).toBe(200);
    expect(await countEvents()).toBe(1);
  });

  it('refuses a Content-Length longer than the body when the client stops sending', async () => {
    const head = rawRequest('POST', '/api/favorites/merge', {
      ...writeHeaders(),
      'Content-Type': 'application/json',
      'Content-Length': '200',
    });
    // Half a body, then the client closes its side: the request can never complete.
    const socket = net.connect(port, '127.0.0.1');
    const closed = new Promise<string>((resolve) => {
      const chunks: Buffer[] = [];
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
    socket.write(`${head}{"ids":["never`);
    socket.end();
    // The body ends before its declared length: refused as a bad request, never taken whole.
    expect(await closed).toMatch(/^HTTP\/1\.1 400 /);
    const favorites = await send('GET', '/api/favorites', { Cookie: cookie });
    expect(favorites.status).toBe(200);
    expect(JSON.parse(favorites.body).ids).toEqual([]);
  });
});
