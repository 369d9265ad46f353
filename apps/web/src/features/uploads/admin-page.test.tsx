import type { OwnedItem, Upload, Uploader } from '@sticky/contracts';
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
    api = stubApi({
      'GET /api/admin/uploads': () => json({ success: true, uploads, next: null }),
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
    expect(api.calls.map((call) => call.url.split('?')[0])).toEqual(['/api/admin/uploads']);
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

  it('shows someone who is not an admin only that the page is for admins', () => {
    renderRoute(<AdminPage />, { path: '/admin', url: '/admin', session: testUser });
    expect(screen.getByText('Only admins can see this page.')).toBeInTheDocument();
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
    expect(api.calls).toEqual([]);
  });
});
