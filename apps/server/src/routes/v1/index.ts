import type { FastifyPluginAsync } from 'fastify';

// Placeholder wired into app.ts; the catalog issue fills it in.
export const v1Routes: FastifyPluginAsync = async () => {};
