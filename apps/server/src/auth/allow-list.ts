import type { AppConfig } from '../config/env.ts';

/** True when the instance is open to everyone or the email is on one of its allow-lists. */
export function isEmailAllowed(
  email: string,
  config: Pick<AppConfig, 'allowedEmails' | 'allowedEmailDomains'>,
): boolean {
  const { allowedEmails, allowedEmailDomains } = config;
  if (allowedEmails.length === 0 && allowedEmailDomains.length === 0) return true;
  const normalized = email.trim().toLowerCase();
  if (allowedEmails.includes(normalized)) return true;
  const at = normalized.lastIndexOf('@');
  return at > 0 && allowedEmailDomains.includes(normalized.slice(at + 1));
}

/**
 * With Google and an allowed domain, the ID token's `hd` (the Workspace domain) must be that
 * domain: a personal Google account can carry a company address without the company's
 * Workspace vouching for it (docs/security.md, "Sign-in"). An address listed one by one in
 * ALLOWED_EMAILS needs no `hd`.
 */
export function isGoogleDomainVouched(
  email: string,
  hostedDomain: unknown,
  config: Pick<AppConfig, 'allowedEmails' | 'allowedEmailDomains' | 'signIn'>,
): boolean {
  if (config.signIn.kind !== 'google' || config.allowedEmailDomains.length === 0) return true;
  const normalized = email.trim().toLowerCase();
  if (config.allowedEmails.includes(normalized)) return true;
  const domain = normalized.slice(normalized.lastIndexOf('@') + 1);
  return typeof hostedDomain === 'string' && hostedDomain.toLowerCase() === domain;
}
