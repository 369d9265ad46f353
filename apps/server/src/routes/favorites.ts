import type { FastifyPluginAsync } from 'fastify';

// Placeholder wired into app.ts; the owning issue fills it in.
export const favoritesRoutes: FastifyPluginAsync = async () => {};
