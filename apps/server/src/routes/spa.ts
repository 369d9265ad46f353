import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../lib/app-error.ts';

export const webDistDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../web/dist',
);

/**
 * Serves the built SPA; any other GET that wants HTML gets index.html (client-side routing).
 * The app's root not-found answer: /api, /v1 and /media answer their own unknown paths.
 */
export const spaRoutes: FastifyPluginAsync<{ distDir?: string }> = async (app, options) => {
  const distDir = options.distDir ?? webDistDir;
  const indexFile = path.join(distDir, 'index.html');
  const hasBuild = fs.existsSync(indexFile);
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      setHeaders: (reply, filePath) => {
        const isHashedAsset = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header(
          'cache-control',
          isHashedAsset ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
        );
      },
    });
  } else {
    app.log.warn(`web app not built (${indexFile} missing): run "npm run build"`);
  }

  app.setNotFoundHandler(async (request, reply) => {
    const wantsHtml = (request.headers.accept ?? '').includes('text/html');
    if (request.method === 'GET' && wantsHtml) {
      if (!hasBuild) {
        return reply
          .status(503)
          .type('text/plain; charset=utf-8')
          .send('The web app is not built yet. Run "npm run build", then restart the server.');
      }
      // The landing page's largest image: fetched with the page, not after its JS has run.
      if (request.url === '/landing' || request.url.startsWith('/landing?')) {
        reply.header('link', '</landing/hero.svg>; rel=preload; as=image');
      }
      return reply
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(fs.createReadStream(indexFile));
    }
    throw new AppError('not_found', `Not found: ${request.method} ${request.url.split('?')[0]}`);
  });
};
