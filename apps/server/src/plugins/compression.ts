import { promisify } from 'node:util';
import zlib from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const brotliCompress = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * How answers made per request are compressed: Brotli at quality 1 and gzip at level 1. For a
 * page of 25 items (about 165 KB of GIPHY JSON) that is under a millisecond and 6–12% larger
 * than the defaults (Brotli 4: 4 ms; gzip 6: 8 ms), time every cold request would wait. The
 * web app's scripts are compressed once, at build, at the strongest settings (routes/spa.ts).
 */
export const dynamicCompression = {
  brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } },
  gzip: { level: 1 },
} as const;

/**
 * Answers up to this size are compressed in one call rather than through a stream. The
 * plugin's default on two cores is 8 KB, so a page of items went through a zlib stream: a
 * thread-pool round trip per 16 KB chunk, and 1.3 ms more per cold search than compressing
 * the 165 KB at once (0.7 ms at Brotli 1), measured in the server (docs/scaling.md).
 */
const SYNC_COMPRESSION_LIMIT = 1024 * 1024;

/** Text answers go out compressed to clients that accept it (br, else gzip). */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    encodings: ['br', 'gzip'],
    brotliOptions: dynamicCompression.brotli,
    zlibOptions: dynamicCompression.gzip,
    syncThreshold: SYNC_COMPRESSION_LIMIT,
  });
}

/** The codings a request accepts, by name, with a q-value above 0. */
export function acceptedEncodings(request: FastifyRequest): Set<string> {
  const accepted = new Set<string>();
  for (const part of String(request.headers['accept-encoding'] ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find(Boolean);
    if (name && (q === undefined || Number(q) > 0)) accepted.add(name);
  }
  return accepted;
}

/** A JSON answer sent many times while it is kept, and its compressed forms once made. */
export interface KeptJson {
  json: string;
  encoded: { br?: Promise<Buffer>; gzip?: Promise<Buffer> };
}

export const keepJson = (json: string): KeptJson => ({ json, encoded: {} });

/** Kept answers are compressed once: they can afford closer to the usual settings. */
const keptCompression = {
  brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } },
  gzip: { level: 6 },
} as const;

/** The coding an answer goes out in: Brotli, else gzip, else none. */
type Coding = 'br' | 'gzip' | 'identity';

function chooseCoding(request: FastifyRequest): Coding {
  const accepted = acceptedEncodings(request);
  return accepted.has('br') ? 'br' : accepted.has('gzip') ? 'gzip' : 'identity';
}

/** An answer whose bytes depend on Accept-Encoding says so, beside what it varies on already. */
function varyOnEncoding(reply: FastifyReply): FastifyReply {
  const vary = reply.getHeader('vary');
  return reply.header('vary', vary ? `${String(vary)}, accept-encoding` : 'accept-encoding');
}

/** A kept answer is JSON whose bytes depend on Accept-Encoding. */
function typeKeptAnswer(reply: FastifyReply): void {
  varyOnEncoding(reply).type('application/json; charset=utf-8');
}

/**
 * Sends `body` compressed at the per-request settings, Brotli or gzip as the request accepts,
 * for answers @fastify/compress never sees: it compresses per route, and the web app's pages
 * are served by the not-found handler, which is no route (routes/spa.ts).
 */
export async function sendCompressed(
  request: FastifyRequest,
  reply: FastifyReply,
  body: string,
): Promise<FastifyReply> {
  varyOnEncoding(reply);
  const coding = chooseCoding(request);
  if (coding === 'identity') return reply.send(body);
  const compressed =
    coding === 'br'
      ? await brotliCompress(body, dynamicCompression.brotli)
      : await gzip(body, dynamicCompression.gzip);
  return reply.header('content-encoding', coding).send(compressed);
}

/**
 * Sends a kept answer (a trending page everyone asks for) compressed as the request accepts,
 * compressing it once for every request while it is kept: at a few thousand requests a
 * second, compressing each would cost more than everything else.
 */
export async function sendKeptJson(
  request: FastifyRequest,
  reply: FastifyReply,
  kept: KeptJson,
): Promise<FastifyReply> {
  typeKeptAnswer(reply);
  const coding = chooseCoding(request);
  if (coding === 'identity') return reply.send(kept.json);
  kept.encoded[coding] ??=
    coding === 'br'
      ? brotliCompress(kept.json, keptCompression.brotli)
      : gzip(kept.json, keptCompression.gzip);
  return reply.header('content-encoding', coding).send(await kept.encoded[coding]);
}

/**
 * A kept answer of which many are kept (pages of search results), stored compressed only:
 * about 28 KB of Brotli for a page of 25 items against 165 KB of JSON. Its first form is the
 * one its first request accepts, made at once at the per-request settings, so that request
 * waits no longer than one whose answer is not kept; another coding is made from it the first
 * time a request asks for one (docs/api.md, "Kept answers").
 */
export interface KeptPage {
  encoded: Partial<Record<Exclude<Coding, 'identity'>, Buffer>>;
  /** Only while no compressed form is: a first request that accepted none. */
  json?: string;
}

function encodePage(json: string, coding: Exclude<Coding, 'identity'>): Buffer {
  return coding === 'br'
    ? zlib.brotliCompressSync(json, dynamicCompression.brotli)
    : zlib.gzipSync(json, dynamicCompression.gzip);
}

/** Keeps `json` in the form `request` accepts. */
export function keepPage(request: FastifyRequest, json: string): KeptPage {
  const coding = chooseCoding(request);
  return coding === 'identity'
    ? { encoded: {}, json }
    : { encoded: { [coding]: encodePage(json, coding) } };
}

function pageText(kept: KeptPage): string {
  if (kept.json !== undefined) return kept.json;
  if (kept.encoded.br) return zlib.brotliDecompressSync(kept.encoded.br).toString('utf8');
  return zlib.gunzipSync(kept.encoded.gzip!).toString('utf8');
}

/** Sends a kept page in the coding the request accepts, made from another form the first time. */
export function sendKeptPage(
  request: FastifyRequest,
  reply: FastifyReply,
  kept: KeptPage,
): FastifyReply {
  typeKeptAnswer(reply);
  const coding = chooseCoding(request);
  if (coding === 'identity') return reply.send(pageText(kept));
  const encoded = (kept.encoded[coding] ??= encodePage(pageText(kept), coding));
  // Once compressed, the JSON itself is no longer kept.
  delete kept.json;
  return reply.header('content-encoding', coding).send(encoded);
}
