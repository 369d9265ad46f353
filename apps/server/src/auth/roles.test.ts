import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/env.ts';
import { toSessionUser } from './roles.ts';

const person = {
  id: 'u1',
  name: 'Ann',
  email: 'Ann@Example.com',
  picture: null,
  groups: [] as string[],
  groupsReadAt: new Date(),
};
const dayMs = 24 * 60 * 60 * 1000;

describe('roles', () => {
  it('makes admins by email (any case) or by an OIDC admin group, and no one else', () => {
    const config = loadConfig({ ADMIN_EMAILS: 'ann@example.com', OIDC_ADMIN_GROUPS: 'mods,ops' });
    expect(toSessionUser(config, person).isAdmin).toBe(true);
    const bob = { ...person, email: 'bob@example.com' };
    expect(toSessionUser(config, bob).isAdmin).toBe(false);
    expect(toSessionUser(config, { ...bob, groups: ['staff', 'ops'] }).isAdmin).toBe(true);
    expect(toSessionUser(config, { ...bob, groups: ['Ops'] }).isAdmin).toBe(false);
  });

  it('honors admin groups only as long as a session lives after the sign-in that read them', () => {
    const config = loadConfig({ OIDC_ADMIN_GROUPS: 'ops', SESSION_MAX_AGE_DAYS: '30' });
    const readAt = (daysAgo: number) => new Date(Date.now() - daysAgo * dayMs);
    const member = { ...person, groups: ['ops'] };
    expect(toSessionUser(config, { ...member, groupsReadAt: readAt(29) }).isAdmin).toBe(true);
    expect(toSessionUser(config, { ...member, groupsReadAt: readAt(30) }).isAdmin).toBe(false);
    // An admin by email is named by the configuration, read now, not by a sign-in.
    const byEmail = loadConfig({ ADMIN_EMAILS: 'ann@example.com', SESSION_MAX_AGE_DAYS: '30' });
    expect(toSessionUser(byEmail, { ...person, groupsReadAt: readAt(400) }).isAdmin).toBe(true);
  });

  it('lets everyone, only admins, or nobody upload, as UPLOADS says', () => {
    const admin = { ...person, email: 'admin@example.com' };
    const canUpload = (uploads: string | undefined, who: typeof person) =>
      toSessionUser(loadConfig({ UPLOADS: uploads, ADMIN_EMAILS: 'admin@example.com' }), who)
        .canUpload;
    expect([canUpload(undefined, person), canUpload(undefined, admin)]).toEqual([true, true]);
    expect([canUpload('admins', person), canUpload('admins', admin)]).toEqual([false, true]);
    expect([canUpload('off', person), canUpload('off', admin)]).toEqual([false, false]);
    expect(() => loadConfig({ UPLOADS: 'sometimes' })).toThrow(/UPLOADS must be everyone/);
  });
});
