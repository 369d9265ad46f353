import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error.ts';

function hasNul(values: unknown): boolean {
  if (!values || typeof values !== 'object') return false;
  return Object.values(values).some((value) =>
    Array.isArray(value)
      ? value.some((item) => typeof item === 'string' && item.includes('\u0000'))
      : typeof value === 'string' && value.includes('\u0000'),
  );
}

/**
 * A NUL byte is never meaningful in a path or query value, and PostgreSQL refuses it in text:
 * say so with a 400 before validation, instead of failing deep inside a query. Registered by
 * the JSON APIs (/api, /v1); the sign-in pages judge their own parameters.
 */
export const nulParametersPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (request) => {
    if (hasNul(request.params) || hasNul(request.query)) {
      throw new AppError('bad_request', 'Parameters must not contain a NUL character (%00).');
    }
  });
});
