import { generateKeyPairSync, sign } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { signSlackRequest } from '../integrations/slack/slack-signature.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { insertCatalogItems } from './catalog-fixtures.ts';

/** One request a fake platform received. */
export interface ReceivedPost {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

export interface FakePlatform {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  received: ReceivedPost[];
  /** Resolves once `count` requests arrived (fails after `timeoutMs`). */
  waitFor: (count: number, timeoutMs?: number) => Promise<ReceivedPost[]>;
  close: () => Promise<void>;
}

/**
 * A chat platform's side on loopback: what Sticky posts to a response_url or to Discord's
 * webhook API is recorded and answered as the platform does (200 and `{}`; Discord's message
 * object for a webhook post).
 */
export async function startFakePlatform(): Promise<FakePlatform> {
  const received: ReceivedPost[] = [];
  const waiters: Array<() => void> = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Kept as text.
      }
      received.push({
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body,
      });
      for (const wake of waiters.splice(0)) wake();
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify(
          request.url?.includes('/commands')
            ? [{ id: '1234567890', name: 'sticky' }]
            : { id: String(received.length) },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    async waitFor(count, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) {
          throw new Error(`Expected ${count} posts, got ${received.length}`);
        }
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
      return received;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Headers of a request signed as Slack signs it. */
export function slackHeaders(
  secret: string,
  body: string,
  timestamp = Math.floor(Date.now() / 1000),
) {
  return {
    'content-type': 'application/x-www-form-urlencoded',
    'x-slack-request-timestamp': String(timestamp),
    'x-slack-signature': signSlackRequest(secret, String(timestamp), Buffer.from(body)),
  };
}

/** An Ed25519 key pair as a Discord application has one: the public key as 64 hex digits. */
export function createDiscordKeys() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(12);
  return {
    publicKeyHex: raw.toString('hex'),
    /** Headers of a request signed as Discord signs it. */
    headers(body: string, timestamp = Math.floor(Date.now() / 1000)) {
      const signature = sign(null, Buffer.from(`${timestamp}${body}`), privateKey);
      return {
        'content-type': 'application/json',
        'x-signature-ed25519': signature.toString('hex'),
        'x-signature-timestamp': String(timestamp),
      };
    },
  };
}

/**
 * Items for "otter": three public ones, and a private, an unlisted and a hidden one with more
 * trend score than all of them (were they listed, they would come first), plus an R-rated one.
 */
export async function insertChatCatalog(database: DatabaseHandle) {
  const [first, second, third] = await insertCatalogItems(database, [
    { title: 'Otter waving', tags: ['otter'], trendScore: 30 },
    { title: 'Otter swimming', tags: ['otter'], trendScore: 20 },
    { title: 'Otter sleeping', tags: ['otter'], trendScore: 10 },
  ]);
  const [hiddenAway, privateOne, unlisted, rated] = await insertCatalogItems(database, [
    { title: 'Otter hidden away', tags: ['otter'], trendScore: 100, isIndexable: false },
    { title: 'Otter private', tags: ['otter'], trendScore: 100, isIndexable: false },
    { title: 'Otter unlisted', tags: ['otter'], trendScore: 100, isIndexable: false },
    { title: 'Otter rated r', tags: ['otter'], trendScore: 100, rating: 'r' },
  ]);
  // As the app marks them (items/owned-items.ts): listed only while public and not hidden.
  await database.db.execute(sql`UPDATE items SET hidden_at = now() WHERE id = ${hiddenAway!}`);
  await database.db.execute(sql`UPDATE items SET visibility = 'private' WHERE id = ${privateOne!}`);
  await database.db.execute(sql`UPDATE items SET visibility = 'unlisted' WHERE id = ${unlisted!}`);
  return {
    publicIds: [first!, second!, third!],
    withheldIds: [hiddenAway!, privateOne!, unlisted!, rated!],
  };
}
