import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/env.ts';
import { isEmailAllowed, isGoogleDomainVouched } from './allow-list.ts';

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

describe("Google's hosted domain (hd) with an allowed domain", () => {
  const google = {
    GOOGLE_CLIENT_ID: 'client',
    GOOGLE_CLIENT_SECRET: 'secret',
    ALLOWED_EMAIL_DOMAINS: 'corp.example',
    ALLOWED_EMAILS: 'contractor@gmail.com',
  };
  const config = loadConfig(google);

  it("lets in a Workspace account of the domain, not a personal one carrying the domain's address", () => {
    expect(isGoogleDomainVouched('ann@corp.example', 'corp.example', config)).toBe(true);
    expect(isGoogleDomainVouched('Ann@Corp.Example', 'CORP.example', config)).toBe(true);
    expect(isGoogleDomainVouched('ann@corp.example', undefined, config)).toBe(false);
    expect(isGoogleDomainVouched('ann@corp.example', 'other.example', config)).toBe(false);
    expect(isGoogleDomainVouched('ann@corp.example', ['corp.example'], config)).toBe(false);
  });

  it('needs no hd for an address listed one by one, nor without a domain list or with another provider', () => {
    expect(isGoogleDomainVouched('contractor@gmail.com', undefined, config)).toBe(true);
    const emailsOnly = loadConfig({ ...google, ALLOWED_EMAIL_DOMAINS: '' });
    expect(isGoogleDomainVouched('contractor@gmail.com', undefined, emailsOnly)).toBe(true);
    const oidc = loadConfig({
      ALLOWED_EMAIL_DOMAINS: 'corp.example',
      OIDC_ISSUER: 'https://issuer.example',
      OIDC_CLIENT_ID: 'id',
      OIDC_CLIENT_SECRET: 'secret',
    });
    expect(isGoogleDomainVouched('ann@corp.example', undefined, oidc)).toBe(true);
  });
});
