import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, stubApi } from '@/test-support/api.ts';
import { fetchMe } from './me-api.ts';

const user = {
  id: 'u1',
  name: 'Ada',
  email: 'ada@example.com',
  picture: null,
  isAdmin: false,
  canUpload: true,
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('fetchMe: GET /api/auth/me', () => {
  it('returns the user from a signed-in answer, asking with credentials', async () => {
    const { calls } = stubApi({ 'GET /api/auth/me': () => json({ success: true, user }) });
    await expect(fetchMe()).resolves.toEqual(user);
    expect(calls[0]?.credentials).toBe('same-origin');
  });

  it('returns null for the 401 signed-out answer', async () => {
    stubApi({ 'GET /api/auth/me': () => json({ success: false, user: null }, 401) });
    await expect(fetchMe()).resolves.toBeNull();
  });

  it.each([
    [
      'a server error',
      () => json({ success: false, error: { code: 'internal', message: 'x' } }, 500),
    ],
    ['an answer that breaks the contract', () => json({ success: true, user: { name: 1 } })],
    [
      'no answer at all',
      () => {
        throw new TypeError('Failed to fetch');
      },
    ],
  ])('treats %s as signed out, silently', async (_label, reply) => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    stubApi({ 'GET /api/auth/me': reply });
    await expect(fetchMe()).resolves.toBeNull();
  });
});
