import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, stubApi } from '@/test-support/api.ts';
import { sessionElementId } from '@sticky/contracts/first-screen';
import { fetchMe, takeCarriedSession } from './me-api.ts';

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

describe('takeCarriedSession: the session in the HTML of a signed-in page', () => {
  function carry(text: string) {
    const element = document.createElement('script');
    element.type = 'application/json';
    element.id = sessionElementId;
    element.textContent = text;
    document.head.append(element);
  }

  afterEach(() => {
    document.getElementById(sessionElementId)?.remove();
  });

  it('gives the user it carries once, and takes it out of the page', () => {
    carry(JSON.stringify({ success: true, user }));
    expect(takeCarriedSession()).toEqual(user);
    expect(document.getElementById(sessionElementId)).toBeNull();
    // Later checks ask the server.
    expect(takeCarriedSession()).toBeUndefined();
  });

  it.each([
    ['nothing carried', null],
    ['a broken element', '{"success":tr'],
    ['an answer that breaks the contract', JSON.stringify({ success: true, user: { name: 1 } })],
    ['a signed-out answer', JSON.stringify({ success: false, user: null })],
  ])('gives nothing for %s, so the server is asked', (_label, text) => {
    if (text !== null) carry(text);
    expect(takeCarriedSession()).toBeUndefined();
    expect(document.getElementById(sessionElementId)).toBeNull();
  });
});
