import type { FastifyInstance } from 'fastify';

export interface RouteEntry {
  method: string;
  /** Full URL pattern, e.g. `/api/favorites/:id`. */
  url: string;
}

const treeLine = /^((?:│ {3}| {4})*)(?:├── |└── )(\S+)(?: \(([^)]+)\))?$/;

/**
 * Every route the app serves, read from `printRoutes()` (Fastify keeps no public list). Tests
 * use it to prove that each `/v1` and `/api` route is covered, so a route added later without
 * hostile-input or cross-site coverage makes them fail instead of slipping through.
 */
export function listRoutes(app: FastifyInstance): RouteEntry[] {
  const lines = app.printRoutes({ commonPrefix: false }).split('\n');
  const stack: string[] = [];
  const routes: RouteEntry[] = [];
  for (const line of lines) {
    const match = treeLine.exec(line.trimEnd());
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    const url = `${stack.join('')}${match[2]}`;
    stack.push(match[2]!);
    for (const method of (match[3] ?? '').split(',').map((part) => part.trim())) {
      if (!method) continue;
      routes.push({ method, url });
    }
  }
  return routes;
}

export const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Routes under `/api` and `/v1`: the ones whose answers must always be our envelopes. */
export function listApiRoutes(app: FastifyInstance): RouteEntry[] {
  return listRoutes(app).filter(
    (route) =>
      (route.url.startsWith('/api/') || route.url.startsWith('/v1/')) && route.method !== 'HEAD',
  );
}
