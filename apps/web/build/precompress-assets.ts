import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

/** Text files worth compressing: the scripts and styles a first visit downloads. */
const compressible = /\.(js|mjs|css|svg|json|txt)$/;

/**
 * Writes a Brotli (.br) and a gzip (.gz) copy beside each built script and style, at the
 * strongest settings: the server sends them as they are (@fastify/static's preCompressed), so
 * no request pays for compressing them, and they come out smaller than compressing on the fly
 * at the fast settings dynamic answers use (docs/web.md, "Lazy routes"). Node's zlib does the
 * work; a plugin package would add a dependency for these few lines.
 */
export function precompressAssets(): Plugin {
  return {
    name: 'sticky-precompress-assets',
    apply: 'build',
    writeBundle(options, bundle) {
      const outDir = options.dir ?? 'dist';
      for (const fileName of Object.keys(bundle)) {
        if (!compressible.test(fileName)) continue;
        const file = path.join(outDir, fileName);
        const source = fs.readFileSync(file);
        if (source.length < 1024) continue;
        fs.writeFileSync(
          `${file}.br`,
          zlib.brotliCompressSync(source, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
              [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length,
            },
          }),
        );
        fs.writeFileSync(
          `${file}.gz`,
          zlib.gzipSync(source, { level: zlib.constants.Z_BEST_COMPRESSION }),
        );
      }
    },
  };
}
