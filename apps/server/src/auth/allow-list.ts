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
