import type { FastifyInstance, FastifySchema } from 'fastify';
import fp from 'fastify-plugin';

export interface RouteEntry {
  method: string;
  /** Full URL pattern, e.g. `/api/favorites/:id`. */
  url: string;
  /** The route's declared schemas (zod), as given; `hide` keeps it out of the OpenAPI document. */
  schema: (FastifySchema & { hide?: boolean }) | undefined;
  /** The route's own budget per caller and window (`config.rateLimit.max`), if it has one. */
  rateLimitMax: number | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route of this app as it was added: method, URL pattern and schemas. */
    routeInventory: readonly RouteEntry[];
  }
}

/**
 * Collects the app's routes from the routes themselves (an onRoute hook, per app), so tests
 * can prove every API route is documented, fuzzed and guarded without a list kept by hand.
 * Register before any route.
 */
export const routeInventoryPlugin = fp(async (app: FastifyInstance) => {
  const routes: RouteEntry[] = [];
  app.decorate('routeInventory', routes);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const config = route.config as { rateLimit?: { max?: unknown } } | undefined;
    const max = config?.rateLimit?.max;
    for (const method of methods) {
      routes.push({
        method,
        url: route.url,
        schema: route.schema as RouteEntry['schema'],
        rateLimitMax: typeof max === 'number' ? max : undefined,
      });
    }
  });
});
