import { describe, expect, it } from 'vitest';
import { isEmailAllowed } from './allow-list.ts';

describe('isEmailAllowed', () => {
  it('lets everyone in when no allow-list is set', () => {
    expect(
      isEmailAllowed('anyone@example.com', { allowedEmails: [], allowedEmailDomains: [] }),
    ).toBe(true);
  });

  it('lets in listed emails and domains only, ignoring case', () => {
    const config = { allowedEmails: ['friend@example.com'], allowedEmailDomains: ['team.example'] };
    expect(isEmailAllowed('Friend@Example.com', config)).toBe(true);
    expect(isEmailAllowed('someone@TEAM.example', config)).toBe(true);
    expect(isEmailAllowed('stranger@example.com', config)).toBe(false);
    expect(isEmailAllowed('someone@evil-team.example', config)).toBe(false);
    expect(isEmailAllowed('someone@team.example.evil.com', config)).toBe(false);
    expect(isEmailAllowed('team.example', config)).toBe(false);
  });
});
