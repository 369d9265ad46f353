import type { SessionUser } from '@sticky/contracts';
import type { AppConfig } from '../config/env.ts';
import { AppError } from '../lib/app-error.ts';

/** A person as stored: what their roles are read from. */
export interface StoredPerson {
  id: string;
  name: string;
  email: string;
  picture: string | null;
  /** The OIDC groups of the last sign-in. */
  groups: readonly string[];
  /** When `groups` were read: the last sign-in. */
  groupsReadAt: Date;
}

/**
 * An admin is named by email (ADMIN_EMAILS) or, with an OIDC provider, by a group of the
 * last sign-in (OIDC_ADMIN_GROUPS); uploads are for everyone, admins only, or off
 * (docs/uploads.md, "Who may do what"). Groups read longer ago than a session lives no longer
 * count: someone taken out of the group loses admin rights at most that long after, on a
 * session or a token alike (docs/security.md, "Admins").
 */
export function isAdminPerson(
  config: AppConfig,
  person: Pick<StoredPerson, 'email' | 'groups' | 'groupsReadAt'>,
  now = Date.now(),
) {
  if (config.admins.emails.includes(person.email.toLowerCase())) return true;
  if (now - person.groupsReadAt.getTime() >= config.sessionMaxAgeMs) return false;
  return person.groups.some((group) => config.admins.oidcGroups.includes(group));
}

/** The session user the APIs see, with what they may do. */
export function toSessionUser(config: AppConfig, person: StoredPerson): SessionUser {
  const isAdmin = isAdminPerson(config, person);
  const canUpload =
    config.uploads.mode === 'everyone' || (config.uploads.mode === 'admins' && isAdmin);
  return {
    id: person.id,
    name: person.name,
    email: person.email,
    picture: person.picture,
    isAdmin,
    canUpload,
  };
}

/** Refuses anyone but an admin (403), saying what only admins may do. */
export function ensureAdmin(user: SessionUser, what: string): SessionUser {
  if (!user.isAdmin) throw new AppError('forbidden', `Only admins may ${what}.`);
  return user;
}
