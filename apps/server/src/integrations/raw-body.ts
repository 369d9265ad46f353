import type { FastifyInstance, FastifyRequest } from 'fastify';

/** A platform's request is at most this large (Slack's and Discord's are a few kilobytes). */
const maxPlatformBodyBytes = 64 * 1024;

/**
 * Inside a platform's own encapsulated plugin: every body is kept as the bytes that came, which
 * is what the platform signed (docs/integrations.md, "Verification"). The route parses it
 * only after the signature or token verified. Other plugins keep their parsers.
 */
export function keepRawBodies(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: maxPlatformBodyBytes },
    (_request, body, done) => done(null, body),
  );
}

/** The request's bytes as they came (empty for a request without a body). */
export function readRawBody(request: FastifyRequest): Buffer {
  return Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
}

/** A header's single value, or '' when it is missing or repeated. */
export function readHeader(request: FastifyRequest, name: string): string {
  const value = request.headers[name];
  return typeof value === 'string' ? value : '';
}
