import type { OwnedItem, Upload } from '@sticky/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { json, stubApi } from '@/test-support/api.ts';
import { renderRoute, testUser } from '@/test-support/render.tsx';
import { makeUploadRow } from './test-support/upload-rows.ts';
import { MyUploadsPage } from './my-uploads-page.tsx';

function ownedItem(upload: Upload, change: Partial<OwnedItem> = {}): OwnedItem {
  return {
    id: upload.itemId!,
    details: upload.details,
    visibility: upload.visibility ?? 'public',
    isHidden: upload.state === 'hidden',
    owner: { id: testUser.id, name: testUser.name, email: testUser.email },
    canEdit: true,
    canDelete: true,
    canHide: false,
    ...change,
  };
}

describe('My uploads', () => {
  beforeAll(async () => {
    await import('@sticky/contracts');
  });
  let uploads: Upload[];
  let items: Map<string, OwnedItem>;
  let api: ReturnType<typeof stubApi>;

  beforeEach(() => {
    const ready = makeUploadRow('up-1', { title: 'Mine ready', itemId: 'i1' });
    const failed = makeUploadRow('up-2', {
      title: 'Broken',
      state: 'failed',
      reason: 'up-2.gif is damaged: it ends before its first frame.',
    });
    const hidden = makeUploadRow('up-3', { title: 'Hidden one', state: 'hidden', itemId: 'i3' });
    const theirs = makeUploadRow('up-4', { title: 'Their dance', itemId: 'i4' });
    uploads = [ready, failed, hidden, theirs];
    items = new Map([
      ['i1', ownedItem(ready)],
      ['i3', ownedItem(hidden)],
      // The same file was someone else's item already: theirs to edit.
      ['i4', ownedItem(theirs, { owner: null, canEdit: false, canDelete: false })],
    ]);
    api = stubApi({
      'GET /api/uploads': () => json({ success: true, uploads, next: null }),
      'GET /api/categories': () => json({ success: true, categories: [] }),
      'GET /api/items/': ({ url }) =>
        json({ success: true, item: items.get(url.split('/').pop()!) }),
      'PATCH /api/items/': ({ url, body }) => {
        const id = url.split('/').pop()!;
        const { visibility } = body as { visibility: Upload['visibility'] };
        uploads = uploads.map((upload) =>
          upload.itemId === id ? { ...upload, visibility } : upload,
        );
        const item = { ...items.get(id)!, visibility: visibility! };
        items.set(id, item);
        return json({ success: true, item });
      },
      'DELETE /api/items/': ({ url }) => {
        const id = url.split('/').pop()!;
        // Deleting an item takes its uploads with it.
        uploads = uploads.filter((upload) => upload.itemId !== id);
        return json({ success: true, id });
      },
    });
  });

  const openMyUploads = async () => {
    renderRoute(<MyUploadsPage />, { path: '/uploads', url: '/uploads' });
    await screen.findByRole('list', { name: 'My uploads' });
  };
  const list = () => within(screen.getByRole('list', { name: 'My uploads' }));
  const rowOf = (title: string) => within(list().getByRole('listitem', { name: title }));
  const deletes = () => api.calls.filter((call) => call.method === 'DELETE');

  it('deletes an upload only after the person confirms, then the row is gone', async () => {
    await openMyUploads();
    const user = userEvent.setup();
    await user.click(await rowOf('Mine ready').findByRole('button', { name: 'Delete Mine ready' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete this item?' });
    expect(dialog).toHaveTextContent('“Mine ready” and its files will be gone for everyone');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(deletes()).toEqual([]);
    expect(rowOf('Mine ready').getByRole('link', { name: 'Mine ready' })).toBeInTheDocument();

    await user.click(rowOf('Mine ready').getByRole('button', { name: 'Delete Mine ready' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete this item?' });
    // The step that cannot be undone is red, not the app's violet.
    const confirm = within(dialog).getByRole('button', { name: 'Delete' });
    expect(confirm).toHaveClass('bg-red-600');
    expect(confirm).not.toHaveClass('bg-violet-600');
    await user.click(confirm);
    await waitFor(() =>
      expect(list().queryByRole('listitem', { name: 'Mine ready' })).not.toBeInTheDocument(),
    );
    expect(deletes().map((call) => call.url)).toEqual(['/api/items/i1']);
    expect(screen.getByText('Item deleted')).toBeInTheDocument();
    expect(list().getAllByRole('listitem')).toHaveLength(3);
  });

  it('says what to do when nothing is uploaded yet, with a link to the Upload page', async () => {
    uploads = [];
    renderRoute(<MyUploadsPage />, { path: '/uploads', url: '/uploads' });
    expect(await screen.findByText('Nothing uploaded yet.')).toBeInTheDocument();
    expect(screen.getByText(/on the Upload page\.$/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Upload your first file' })).toHaveAttribute(
      'href',
      '/upload',
    );
  });

  it('shows who can see each of the person’s items and lets them change it', async () => {
    await openMyUploads();
    const user = userEvent.setup();
    const choice = await rowOf('Mine ready').findByRole('combobox', {
      name: 'Who can see it (Mine ready)',
    });
    expect(choice).toHaveDisplayValue('Everyone on this Sticky can find it');
    await user.selectOptions(choice, 'Only you');
    await waitFor(() =>
      expect(api.calls.filter((call) => call.method === 'PATCH')).toEqual([
        expect.objectContaining({ url: '/api/items/i1', body: { visibility: 'private' } }),
      ]),
    );
    expect(await screen.findByText('Now: only you')).toBeInTheDocument();
    await waitFor(() =>
      expect(rowOf('Mine ready').getByRole('combobox')).toHaveDisplayValue('Only you'),
    );
    // A private item's page still opens for its owner, but has no link to share: it is 404
    // for anyone it would be sent to.
    await waitFor(() =>
      expect(
        rowOf('Mine ready').queryByRole('button', { name: 'Copy link of Mine ready' }),
      ).not.toBeInTheDocument(),
    );
    expect(rowOf('Mine ready').getByRole('link', { name: 'Mine ready' })).toHaveAttribute(
      'href',
      expect.stringMatching(/^\/gif\/.*i1$/),
    );
    // Someone else’s item is theirs to change.
    expect(rowOf('Their dance').queryByRole('combobox')).not.toBeInTheDocument();
  });

  it('copies the link of the item page', async () => {
    await openMyUploads();
    const user = userEvent.setup();
    await user.click(rowOf('Mine ready').getByRole('button', { name: 'Copy link of Mine ready' }));
    expect(await navigator.clipboard.readText()).toBe(`${window.location.origin}/gif/i1`);
    expect(await screen.findByText('Link Copied!')).toBeInTheDocument();
  });

  it('shows a failed upload with its reason, and a hidden one as hidden, without a link', async () => {
    await openMyUploads();
    const failed = rowOf('Broken');
    expect(failed.getByText('Failed')).toBeInTheDocument();
    expect(
      failed.getByText('up-2.gif is damaged: it ends before its first frame.'),
    ).toBeInTheDocument();
    expect(failed.queryByRole('button')).not.toBeInTheDocument();

    const hidden = rowOf('Hidden one');
    expect(hidden.getByText('Hidden')).toBeInTheDocument();
    expect(hidden.queryByRole('link')).not.toBeInTheDocument();
    expect(hidden.queryByRole('button', { name: /Copy link/ })).not.toBeInTheDocument();
    // Still the person's own: they may edit or delete it.
    expect(await hidden.findByRole('button', { name: 'Edit Hidden one' })).toBeInTheDocument();
    expect(hidden.getByRole('button', { name: 'Delete Hidden one' })).toBeInTheDocument();
  });

  it('offers no Edit or Delete on an upload whose item is someone else’s', async () => {
    await openMyUploads();
    const theirs = rowOf('Their dance');
    expect(await theirs.findByText(/already in Sticky as someone else’s item/)).toBeInTheDocument();
    expect(theirs.queryByRole('button', { name: /Edit/ })).not.toBeInTheDocument();
    expect(theirs.queryByRole('button', { name: /Delete/ })).not.toBeInTheDocument();
    expect(theirs.getByRole('button', { name: 'Copy link of Their dance' })).toBeInTheDocument();
    // The person's own rows keep theirs.
    expect(
      rowOf('Mine ready').getByRole('button', { name: 'Edit Mine ready' }),
    ).toBeInTheDocument();
  });
});
