import type {
  AuditEvent,
  ManagedCategory,
  OwnedItem,
  Report,
  Upload,
  UploadBan,
  Uploader,
} from '@sticky/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { json, stubApi } from '@/test-support/api.ts';
import { renderRoute, testUser } from '@/test-support/render.tsx';
import { makeUploadRow } from './test-support/upload-rows.ts';
import { AdminPage } from './admin-page.tsx';

const admin = { ...testUser, isAdmin: true };
const grace: Uploader = { id: 'u2', name: 'Grace Hopper', email: 'grace@example.com' };
const alan: Uploader = { id: 'u3', name: 'Alan Turing', email: 'alan@example.com' };

describe('Admin', () => {
  beforeAll(async () => {
    await import('@sticky/contracts');
  });
  let uploads: Upload[];
  let reports: Report[];
  let audit: AuditEvent[];
  let bans: UploadBan[];
  let categories: ManagedCategory[];
  let api: ReturnType<typeof stubApi>;

  beforeEach(() => {
    uploads = [
      makeUploadRow('up-1', { title: 'Cat dance', itemId: 'i1', uploader: grace }),
      makeUploadRow('up-2', { title: 'Rain loop', itemId: 'i2', state: 'hidden', uploader: alan }),
      makeUploadRow('up-3', {
        title: 'Broken',
        state: 'failed',
        reason: 'up-3.gif: the GIF has no frames.',
        uploader: alan,
      }),
    ];
    reports = [
      {
        id: 'r1',
        itemId: 'i1',
        itemTitle: 'Cat dance',
        itemUrl: 'http://localhost/gif/cat-dance-i1',
        isItemHidden: false,
        reporter: alan,
        reason: 'harassment',
        note: 'Mocks a colleague',
        state: 'open',
        createdAt: '2026-12-07T10:00:00.000Z',
      },
    ];
    audit = [
      {
        id: '2',
        actorName: 'Admin (admin@example.com)',
        action: 'item.hide',
        target: 'item i2',
        detail: 'Rain loop',
        createdAt: '2026-12-07T09:00:00.000Z',
      },
      {
        id: '1',
        actorName: 'Admin (admin@example.com)',
        action: 'hash.block',
        target: 'ab'.repeat(32),
        detail: 'from item i2',
        createdAt: '2026-12-07T08:59:00.000Z',
      },
    ];
    bans = [];
    categories = [{ id: 1, name: 'Reactions', path: 'Reactions', parentId: null, itemCount: 2 }];
    api = stubApi({
      'GET /api/admin/uploads': () => json({ success: true, uploads, next: null }),
      'GET /api/admin/reports': ({ url }) => {
        const state = new URL(url, 'http://localhost').searchParams.get('state');
        return json({
          success: true,
          reports: reports.filter((report) => report.state === state),
          next: null,
        });
      },
      'PATCH /api/admin/reports/': ({ url, body }) => {
        const id = url.split('/').pop()!;
        const { state } = body as { state: Report['state'] };
        reports = reports.map((report) => (report.id === id ? { ...report, state } : report));
        return json({ success: true, id, state });
      },
      'GET /api/admin/audit': ({ url }) => {
        const cursor = new URL(url, 'http://localhost').searchParams.get('cursor');
        // Two pages: the newest event, then the one before it.
        return cursor
          ? json({ success: true, events: audit.slice(1), next: null })
          : json({ success: true, events: audit.slice(0, 1), next: '2' });
      },
      'GET /api/admin/upload-bans': () => json({ success: true, bans }),
      'PUT /api/admin/upload-bans/': ({ url, body }) => {
        const id = url.split('/').pop()!;
        const person = [grace, alan].find((entry) => entry.id === id)!;
        const ban = {
          person,
          reason: (body as { reason: string }).reason,
          createdAt: '2026-12-07T11:00:00.000Z',
        };
        bans = [ban];
        return json({ success: true, ban });
      },
      'DELETE /api/admin/upload-bans/': ({ url }) => {
        bans = [];
        return json({ success: true, userId: url.split('/').pop() });
      },
      'GET /api/admin/blocked-hashes': () => json({ success: true, hashes: [], next: null }),
      'GET /api/categories': () => json({ success: true, categories }),
      'POST /api/admin/categories': ({ body }) => {
        const { name, parentId } = body as { name: string; parentId?: number };
        const parent = categories.find((category) => category.id === parentId);
        const category: ManagedCategory = {
          id: categories.length + 1,
          name,
          path: parent ? `${parent.name}/${name}` : name,
          parentId: parentId ?? null,
          itemCount: 0,
        };
        categories = [...categories, category];
        return json({ success: true, category }, 201);
      },
      'PATCH /api/items/': ({ url, body }) => {
        const id = url.split('/').pop()!;
        const { isHidden } = body as { isHidden: boolean };
        uploads = uploads.map((upload) =>
          upload.itemId === id ? { ...upload, state: isHidden ? 'hidden' : 'ready' } : upload,
        );
        const upload = uploads.find((entry) => entry.itemId === id)!;
        const item: OwnedItem = {
          id,
          details: upload.details,
          visibility: 'public',
          isHidden,
          owner: upload.uploader,
          canEdit: true,
          canDelete: true,
          canHide: true,
        };
        return json({ success: true, item });
      },
      'DELETE /api/items/': ({ url }) => {
        const id = url.split('/').pop()!;
        uploads = uploads.filter((upload) => upload.itemId !== id);
        return json({ success: true, id });
      },
    });
  });

  const openAdmin = async () => {
    renderRoute(<AdminPage />, { path: '/admin', url: '/admin', session: admin });
    await screen.findByRole('list', { name: 'Recent uploads' });
  };
  const list = () => within(screen.getByRole('list', { name: 'Recent uploads' }));
  const rowOf = (title: string) => within(list().getByRole('listitem', { name: title }));
  const writes = () => api.calls.filter((call) => call.method !== 'GET');

  it('lists everyone’s uploads with who uploaded each', async () => {
    await openAdmin();
    expect(rowOf('Cat dance').getByText('Grace Hopper (grace@example.com)')).toBeInTheDocument();
    expect(rowOf('Rain loop').getByText('Alan Turing (alan@example.com)')).toBeInTheDocument();
    expect(rowOf('Broken').getByText('Alan Turing (alan@example.com)')).toBeInTheDocument();
    expect(rowOf('Broken').getByText('up-3.gif: the GIF has no frames.')).toBeInTheDocument();
    // Everyone's uploads, not the admin's own.
    const paths = api.calls.map((call) => call.url.split('?')[0]);
    expect(paths).toContain('/api/admin/uploads');
    expect(paths).not.toContain('/api/uploads');
  });

  it('hides an item and shows its row hidden, then unhides it', async () => {
    await openAdmin();
    const user = userEvent.setup();
    expect(rowOf('Cat dance').getByText('Ready')).toBeInTheDocument();
    await user.click(rowOf('Cat dance').getByRole('button', { name: 'Hide Cat dance' }));
    expect(await rowOf('Cat dance').findByText('Hidden')).toBeInTheDocument();
    expect(await screen.findByText('Item hidden')).toBeInTheDocument();
    // A hidden item has no public page to link to or copy.
    expect(rowOf('Cat dance').queryByRole('link')).not.toBeInTheDocument();
    expect(
      rowOf('Cat dance').queryByRole('button', { name: 'Copy link of Cat dance' }),
    ).not.toBeInTheDocument();

    await user.click(rowOf('Cat dance').getByRole('button', { name: 'Unhide Cat dance' }));
    expect(await rowOf('Cat dance').findByText('Ready')).toBeInTheDocument();
    expect(await screen.findByText('Item visible again')).toBeInTheDocument();
    expect(rowOf('Cat dance').getByRole('link', { name: 'Cat dance' })).toBeInTheDocument();
    expect(writes().map((call) => [call.method, call.url, call.body])).toEqual([
      ['PATCH', '/api/items/i1', { isHidden: true }],
      ['PATCH', '/api/items/i1', { isHidden: false }],
    ]);
    // The other rows did not change.
    expect(rowOf('Rain loop').getByText('Hidden')).toBeInTheDocument();
  });

  it('deletes any item only after the admin confirms', async () => {
    await openAdmin();
    const user = userEvent.setup();
    await user.click(rowOf('Rain loop').getByRole('button', { name: 'Delete Rain loop' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete this item?' });
    expect(dialog).toHaveTextContent('“Rain loop” and its files will be gone for everyone');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(writes()).toEqual([]);
    expect(list().getByRole('listitem', { name: 'Rain loop' })).toBeInTheDocument();

    await user.click(rowOf('Rain loop').getByRole('button', { name: 'Delete Rain loop' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete this item?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(list().queryByRole('listitem', { name: 'Rain loop' })).not.toBeInTheDocument(),
    );
    expect(writes().map((call) => [call.method, call.url])).toEqual([['DELETE', '/api/items/i2']]);
    expect(screen.getByText('Item deleted')).toBeInTheDocument();
    expect(list().getAllByRole('listitem')).toHaveLength(2);
  });

  it('lists open reports with the item, who reported it and why; hides the item and resolves', async () => {
    await openAdmin();
    const user = userEvent.setup();
    const list = await screen.findByRole('list', { name: 'Reports' });
    const row = within(within(list).getByRole('listitem'));
    expect(row.getByRole('link', { name: 'Cat dance' })).toHaveAttribute(
      'href',
      '/gif/cat-dance-i1',
    );
    expect(row.getByText('Harassment or hate')).toBeInTheDocument();
    expect(row.getByText(/Mocks a colleague/)).toBeInTheDocument();
    expect(row.getByText(/by Alan Turing \(alan@example.com\)/)).toBeInTheDocument();

    await user.click(
      row.getByRole('button', { name: 'Hide item and resolve the report of Cat dance' }),
    );
    expect(await screen.findByText('No open reports.')).toBeInTheDocument();
    expect(writes().map((call) => [call.method, call.url, call.body])).toEqual([
      ['PATCH', '/api/items/i1', { isHidden: true }],
      ['PATCH', '/api/admin/reports/r1', { state: 'resolved' }],
    ]);
    await user.click(
      within(screen.getByRole('group', { name: 'Show reports' })).getByRole('button', {
        name: 'Resolved',
      }),
    );
    expect(await screen.findByRole('list', { name: 'Reports' })).toHaveTextContent('Cat dance');
  });

  it('dismisses a report without touching the item', async () => {
    await openAdmin();
    const user = userEvent.setup();
    const list = await screen.findByRole('list', { name: 'Reports' });
    await user.click(within(list).getByRole('button', { name: 'Dismiss the report of Cat dance' }));
    expect(await screen.findByText('Report dismissed')).toBeInTheDocument();
    expect(writes().map((call) => [call.method, call.url, call.body])).toEqual([
      ['PATCH', '/api/admin/reports/r1', { state: 'dismissed' }],
    ]);
  });

  it('lists admin actions newest first, who did what, and pages back', async () => {
    await openAdmin();
    const user = userEvent.setup();
    const list = await screen.findByRole('list', { name: 'Audit list' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    expect(list).toHaveTextContent('Admin (admin@example.com) hid item i2');
    expect(list).toHaveTextContent('(Rain loop)');
    await user.click(screen.getByRole('button', { name: 'Older actions' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2));
    expect(within(list).getAllByRole('listitem')[1]).toHaveTextContent(
      `Admin (admin@example.com) blocked the file ${'ab'.repeat(32)}`,
    );
    expect(screen.queryByRole('button', { name: 'Older actions' })).not.toBeInTheDocument();
  });

  it('stops a person’s uploads with a reason, lists them, and lets them upload again', async () => {
    await openAdmin();
    const user = userEvent.setup();
    await user.click(
      rowOf('Cat dance').getByRole('button', { name: 'Stop uploads by Grace Hopper' }),
    );
    const dialog = await screen.findByRole('dialog', { name: "Stop Grace Hopper's uploads?" });
    await user.type(within(dialog).getByLabelText('Reason they will see'), 'Spam, again');
    await user.click(within(dialog).getByRole('button', { name: 'Stop uploads' }));
    const banned = await screen.findByRole('list', { name: 'Stopped from uploading' });
    expect(banned).toHaveTextContent('Grace Hopper (grace@example.com)');
    expect(banned).toHaveTextContent('“Spam, again”');
    await user.click(within(banned).getByRole('button', { name: 'Let upload again Grace Hopper' }));
    expect(await screen.findByText('Nobody is stopped.')).toBeInTheDocument();
    expect(writes().map((call) => [call.method, call.url, call.body])).toEqual([
      ['PUT', '/api/admin/upload-bans/u2', { reason: 'Spam, again' }],
      ['DELETE', '/api/admin/upload-bans/u2', undefined],
    ]);
  });

  it('adds a subcategory under an existing category', async () => {
    await openAdmin();
    const user = userEvent.setup();
    const form = await screen.findByRole('form', { name: 'Add a category' });
    await user.type(within(form).getByLabelText('Name'), 'Happy');
    await user.selectOptions(within(form).getByLabelText('Under'), 'Reactions');
    await user.click(within(form).getByRole('button', { name: 'Add category' }));
    const list = screen.getByRole('list', { name: 'Categories' });
    expect(
      await within(list).findByRole('button', { name: 'Rename Reactions/Happy' }),
    ).toBeInTheDocument();
    expect(writes().map((call) => [call.method, call.url, call.body])).toEqual([
      ['POST', '/api/admin/categories', { name: 'Happy', parentId: 1 }],
    ]);
  });

  const localConfig = { source: 'local' as const, apiKey: 'k', analyticsScriptUrl: null };

  it('shows someone who is not an admin only that the page is for admins', () => {
    renderRoute(<AdminPage />, {
      path: '/admin',
      url: '/admin',
      session: testUser,
      config: { ...localConfig, canBecomeAdminLocally: false },
    });
    expect(screen.getByText('Only admins can see this page.')).toBeInTheDocument();
    expect(screen.queryByText(/ADMIN_EMAILS/)).not.toBeInTheDocument();
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
    expect(api.calls).toEqual([]);
  });

  it('tells a non-admin how to become one on loopback with the local sign-in', () => {
    renderRoute(<AdminPage />, {
      path: '/admin',
      url: '/admin',
      session: testUser,
      config: { ...localConfig, canBecomeAdminLocally: true },
    });
    expect(screen.getByText('Only admins can see this page.')).toBeInTheDocument();
    expect(screen.getByText(`ADMIN_EMAILS=${testUser.email}`)).toBeInTheDocument();
    expect(api.calls).toEqual([]);
  });
});
