import { createHash } from 'node:crypto';
import swagger from '@fastify/swagger';
import scalarApiReference from '@scalar/fastify-api-reference';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { sessionCookieName } from '../auth/sessions.ts';

/**
 * OpenAPI 3.1 made from the routes' own zod schemas (docs/api.md, "OpenAPI"): whatever a route
 * declares to validate its input and serialize its answers is what the document says. Routes
 * without a schema (the web app's files, the local sign-in issuer) are not API and stay out.
 * Register before any route: @fastify/swagger collects routes as they are added.
 */
export const openApiPlugin = fp(async (app: FastifyInstance) => {
  const { config } = app.deps;
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Sticky',
        version: '1',
        description:
          '`/api`: what the Sticky web app uses (JSON, errors as `{success: false, error}`). ' +
          "`/v1`: GIPHY's API over this server's catalog, for GIPHY's SDKs (errors as `{meta}`).",
      },
      servers: [{ url: config.publicUrl }],
      tags: [
        { name: 'api', description: 'The web app’s API: signed in by the session cookie.' },
        {
          name: 'v1',
          description:
            'GIPHY’s API over this catalog: signed in, or with an `api_key` from STICKY_API_KEYS.',
        },
        { name: 'media', description: 'The catalog’s files: public and immutable.' },
        { name: 'health', description: 'Probes for a process manager or load balancer.' },
      ],
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: sessionCookieName(config) },
          apiKey: { type: 'apiKey', in: 'query', name: 'api_key' },
        },
      },
    },
    transform: (document) =>
      document.schema
        ? jsonSchemaTransform(document)
        : { schema: { hide: true } as never, url: document.url },
  });
});

/**
 * Tags every route this plugin (and its children) adds, and says who may call them, so a new
 * API plugin's routes land in the document under their own heading without a list to update.
 */
export function documentRoutesAs(
  app: FastifyInstance,
  tag: string,
  security: Array<Record<string, string[]>> = [{ session: [] }],
): void {
  app.addHook('onRoute', (route) => {
    if (!route.schema || (route.schema as { hide?: boolean }).hide) return;
    route.schema = { ...route.schema, tags: [tag], security } as typeof route.schema;
  });
}

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
}

/**
 * The API reference page (Scalar), served whole from this server: its script comes from the
 * npm package, nothing from a CDN. Its page needs one inline script (the configuration) and
 * inline styles; its CSP allows exactly those, by hash, on its own routes only.
 */
export const apiDocsRoutes: FastifyPluginAsync = async (app) => {
  // Pages people open: under another host name, redirected there rather than refused.
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, isNavigation: true };
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (typeof payload !== 'string' || !payload.startsWith('<!doctype html>')) return payload;
    const inlineScripts = [
      ...payload.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g),
    ];
    reply.header(
      'content-security-policy',
      [
        "default-src 'none'",
        `script-src 'self' ${inlineScripts.map((match) => sha256(match[1] ?? '')).join(' ')}`,
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "font-src 'self' data:",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
      ].join('; '),
    );
    return payload;
  });
  await app.register(scalarApiReference, {
    routePrefix: '/',
    logLevel: 'warn',
    configuration: {
      pageTitle: 'Sticky API',
      // Fonts, the AI agent, MCP and the developer toolbar live on Scalar's servers.
      withDefaultFonts: false,
      telemetry: false,
      showDeveloperTools: 'never',
      agent: { disabled: true },
      mcp: { disabled: true },
    },
  });
};
