import { createHash } from 'node:crypto';
import swagger from '@fastify/swagger';
import scalarApiReference from '@scalar/fastify-api-reference';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { sessionCookieName } from '../auth/sessions.ts';

/**
 * The document's headings, in the order the reference lists them (docs/api.md, "OpenAPI");
 * `x-displayName` is the heading Scalar shows.
 */
const apiTags = [
  {
    name: 'api',
    'x-displayName': '/api: the web app',
    description:
      'What the Sticky web app uses: signed in by the session cookie; the routes that say so also take a personal API token (`Authorization: Bearer`).',
  },
  {
    name: 'v1',
    'x-displayName': '/v1: GIPHY-compatible',
    description:
      'GIPHY’s API over this catalog, for GIPHY’s SDKs: signed in, with an `api_key` from STICKY_API_KEYS, or with a personal API token with the `read` scope.',
  },
  {
    name: 'v2',
    'x-displayName': '/v2: Tenor-compatible',
    description:
      'Tenor’s API v2 over this catalog, for Tenor clients: the same keys and tokens as `/v1`.',
  },
  {
    name: 'uploads',
    'x-displayName': 'Uploads',
    description:
      'Sending files and following them until they are items: the session cookie or a personal API token with the `upload` scope (what ShareX and scripts use).',
  },
  {
    name: 'previews',
    'x-displayName': 'Link previews',
    description: 'oEmbed for the apps that unfurl an item’s link.',
  },
  { name: 'media', 'x-displayName': 'Media', description: 'The catalog’s files.' },
  {
    name: 'health',
    'x-displayName': 'Health and metrics',
    description: 'Probes for a process manager or load balancer, and Prometheus metrics.',
  },
];

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
          "`/v1`: GIPHY's API over this server's catalog, for GIPHY's SDKs (errors as `{meta}`). " +
          "`/v2`: Tenor's API v2 over the same catalog (errors as `{error}`). " +
          'Scripts sign in with a personal API token made on /settings, sent as `Authorization: Bearer <token>`: it is not a GIPHY `api_key`.',
      },
      servers: [{ url: config.publicUrl }],
      tags: apiTags,
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: sessionCookieName(config) },
          apiKey: { type: 'apiKey', in: 'query', name: 'api_key' },
          token: {
            type: 'http',
            scheme: 'bearer',
            description:
              'A personal API token, made on /settings with the scopes it needs. It is not a GIPHY `api_key`: send it as `Authorization: Bearer <token>`, never as `?api_key=`.',
          },
        },
      },
    },
    transform: (document) => {
      if (!document.schema) return { schema: { hide: true } as never, url: document.url };
      // A multipart route validates its parts itself; its form is documented as its body.
      const { multipartBody, ...schema } = document.schema as typeof document.schema & {
        multipartBody?: unknown;
      };
      return jsonSchemaTransform({
        ...document,
        schema: multipartBody ? { ...schema, body: multipartBody } : schema,
      });
    },
  });
});

export interface DocumentRoutesOptions {
  /** Who may call them besides a personal API token (which the route's scope decides). */
  security?: Array<Record<string, string[]>>;
  /** The scope tokens need on routes that name none (sessionUserPlugin's `defaultTokenScope`). */
  defaultTokenScope?: string;
}

/**
 * Tags every route this plugin (and its children) adds, and says who may call them, so a new
 * API plugin's routes land in the document under their own heading without a list to update.
 * A route a token may call (its `config.tokenScope`, or the plugin's default) also lists the
 * Bearer scheme; a route that declares its own tag keeps it.
 */
export function documentRoutesAs(
  app: FastifyInstance,
  tag: string,
  { security = [{ session: [] }], defaultTokenScope }: DocumentRoutesOptions = {},
): void {
  app.addHook('onRoute', (route) => {
    if (!route.schema || (route.schema as { hide?: boolean }).hide) return;
    const scope = (route.config as { tokenScope?: string } | undefined)?.tokenScope;
    const isTokenRoute = (scope ?? defaultTokenScope) !== undefined;
    route.schema = {
      ...route.schema,
      tags: route.schema.tags ?? [tag],
      security: isTokenRoute ? [...security, { token: [] }] : security,
    } as typeof route.schema;
  });
}

/** Lists a child plugin's routes under another heading than their API's (`uploads`). */
export function tagRoutesAs(app: FastifyInstance, tag: string): void {
  app.addHook('onRoute', (route) => {
    if (route.schema) route.schema = { ...route.schema, tags: [tag] };
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
      // The app's own look: dark, violet (apps/web/src/index.css).
      theme: 'purple',
      darkMode: true,
      forceDarkModeState: 'dark',
      hideDarkModeToggle: true,
      // Fonts, the AI agent, MCP and the developer toolbar live on Scalar's servers.
      withDefaultFonts: false,
      telemetry: false,
      showDeveloperTools: 'never',
      agent: { disabled: true },
      mcp: { disabled: true },
    },
  });
};
