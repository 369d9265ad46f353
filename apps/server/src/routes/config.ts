import type { ClientConfig } from '@sticky/contracts';
import { clientConfigSchema } from '@sticky/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppConfig } from '../config/env.ts';
import { isLoopbackHost } from '../config/env-values.ts';
import { apiErrorResponses } from '../plugins/error-handler.ts';

/**
 * The key the SPA's GIPHY client sends to our own `/v1` in local mode. `/v1` authorizes the
 * browser by its session cookie; the SDK insists on sending some `api_key`.
 */
export const localApiKey = 'sticky-web';

export function buildClientConfig(config: AppConfig): ClientConfig {
  const analyticsScriptUrl = config.analyticsScriptUrl ?? null;
  const analyticsScriptIntegrity = config.analyticsScriptIntegrity ?? null;
  if (config.giphy) {
    // GIPHY's key is public by design: GIPHY requires the browser to call it directly.
    return {
      source: 'giphy',
      apiKey: config.giphy.apiKey,
      apiUrl: config.giphy.apiUrl,
      analyticsScriptUrl,
      analyticsScriptIntegrity,
    };
  }
  return {
    source: 'local',
    apiKey: localApiKey,
    analyticsScriptUrl,
    analyticsScriptIntegrity,
    publicLinks: config.publicLinks,
    // Anyone may sign in as anyone here, on this machine only: naming oneself admin is safe.
    canBecomeAdminLocally:
      config.signIn.kind === 'local' &&
      isLoopbackHost(config.host) &&
      isLoopbackHost(new URL(config.publicUrl).hostname),
  };
}

/** What the SPA needs at run time: where content comes from and which scripts to load. */
export const configRoutes: FastifyPluginAsyncZod = async (app) => {
  const clientConfig = buildClientConfig(app.deps.config);
  app.get(
    '/',
    {
      config: { tokenScope: 'read' },
      schema: {
        summary: 'Where the web app gets its content, and which scripts it loads',
        response: { 200: clientConfigSchema, ...apiErrorResponses },
      },
    },
    async (_request, reply) => {
      // Short: a restart with another content source must reach open tabs soon.
      reply.header('cache-control', 'public, max-age=60');
      return clientConfig;
    },
  );
};
