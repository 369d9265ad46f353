import zlib from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

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

/** Text answers go out compressed to clients that accept it (br, else gzip). */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    encodings: ['br', 'gzip'],
    brotliOptions: dynamicCompression.brotli,
    zlibOptions: dynamicCompression.gzip,
  });
}
