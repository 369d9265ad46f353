import { describe, expect, it } from 'vitest';
import { parseSignInErrorCode, signInErrorCodeSchema, signInErrorMessages } from './auth.ts';

describe('sign-in error codes', () => {
  it('reads a known code from the landing URL and ignores anything else', () => {
    expect(parseSignInErrorCode('not_allowed')).toBe('not_allowed');
    expect(parseSignInErrorCode('<script>')).toBeNull();
    expect(parseSignInErrorCode('toString')).toBeNull();
    expect(parseSignInErrorCode('')).toBeNull();
    expect(parseSignInErrorCode(null)).toBeNull();
  });

  it('has a distinct, sentence-like message for every code', () => {
    const messages = signInErrorCodeSchema.options.map((code) => signInErrorMessages[code]);
    expect(new Set(messages).size).toBe(messages.length);
    for (const message of messages) expect(message).toMatch(/^[A-Z].{20,}\.$/);
  });
});
