import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

// Placeholder: the sign-in issue resolves request.user from the session cookie here.
export const sessionPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('user', null);
});
