import { describe, expect, it } from 'vitest';
import { buildSignInUrl } from './sign-in-url.ts';

describe('buildSignInUrl', () => {
  it('starts sign-in at /api/auth/googleAuth', () => {
    expect(buildSignInUrl()).toBe('/api/auth/googleAuth');
    expect(buildSignInUrl(null)).toBe('/api/auth/googleAuth');
  });

  it('asks to come back to the page the visitor was sent away from', () => {
    expect(buildSignInUrl('/search/cute cats?type=stickers')).toBe(
      '/api/auth/googleAuth?returnTo=%2Fsearch%2Fcute%20cats%3Ftype%3Dstickers',
    );
  });

  it.each(['https://evil.example/', '//evil.example', '/\\evil.example', 'evil', '/landing', '/'])(
    'drops %s',
    (returnTo) => {
      expect(buildSignInUrl(returnTo)).toBe('/api/auth/googleAuth');
    },
  );
});
