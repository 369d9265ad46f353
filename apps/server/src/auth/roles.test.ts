import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/env.ts';
import { toSessionUser } from './roles.ts';

const person = { id: 'u1', name: 'Ann', email: 'Ann@Example.com', picture: null, groups: [] };

describe('roles', () => {
  it('makes admins by email (any case) or by an OIDC admin group, and no one else', () => {
    const config = loadConfig({ ADMIN_EMAILS: 'ann@example.com', OIDC_ADMIN_GROUPS: 'mods,ops' });
    expect(toSessionUser(config, person).isAdmin).toBe(true);
    const bob = { ...person, email: 'bob@example.com' };
    expect(toSessionUser(config, bob).isAdmin).toBe(false);
    expect(toSessionUser(config, { ...bob, groups: ['staff', 'ops'] }).isAdmin).toBe(true);
    expect(toSessionUser(config, { ...bob, groups: ['Ops'] }).isAdmin).toBe(false);
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
