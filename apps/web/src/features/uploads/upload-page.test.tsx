import type { OwnedItem, Upload, UploadLimitsResponse } from '@sticky/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Route, Routes } from 'react-router';
import { json, stubApi } from '@/test-support/api.ts';
import { renderInRouter, testUser } from '@/test-support/render.tsx';
import { stubUploadRequests } from './test-support/upload-requests.ts';
import { UploadPage } from './upload-page.tsx';

const limits: UploadLimitsResponse = {
  success: true,
  canUpload: true,
  maxFileBytes: 10 * 1024 * 1024,
  maxFilesPerRequest: 20,
  bytesPerDay: 100 * 1024 * 1024,
  itemsPerDay: 100,
  bytesUsedToday: 0,
  itemsUsedToday: 0,
  megapixelsPerDay: 10_000,
  megapixelsUsedToday: 0,
  banReason: null,
  mediaTypes: ['image/gif', 'image/webp', 'image/png', 'image/jpeg'],
  visibility: 'public',
};

const gif = (name: string) => new File(['GIF89a'], name, { type: 'image/gif' });

function ownedItem(id: string, change: Partial<OwnedItem> = {}): OwnedItem {
  return {
    id,
    details: {
      title: 'Item title',
      tags: [],
      type: 'gif',
      category: null,
      rating: 'g',
      sourceUrl: '',
      caption: '',
    },
    visibility: 'public',
    isHidden: false,
    owner: { id: testUser.id, name: testUser.name, email: testUser.email },
    canEdit: true,
    canDelete: true,
    canHide: false,
    ...change,
  };
}

function uploadRow(id: string, change: Partial<Upload>): Upload {
  return {
    id,
    itemId: null,
    state: 'processing',
    reason: null,
    fileName: 'file.gif',
    bytes: 6,
    createdAt: '2025-01-02T10:00:00.000Z',
    previewUrl: null,
    previewStillUrl: null,
    details: {
      title: 'File',
      tags: [],
      type: 'gif',
      category: null,
      rating: 'g',
      sourceUrl: '',
      caption: '',
    },
    visibility: null,
    uploader: null,
    ...change,
  };
}

/** Stands in for the canvas APIs jsdom lacks: each file's first frame has this alpha. */
function stubFirstFrames(alphaOf: (width: number) => number) {
  vi.stubGlobal('createImageBitmap', async (file: File) => ({
    // The file's size carries which frame it has: the stub reads it back as the width.
    width: file.size,
    height: 1,
    close: () => {},
  }));
  vi.stubGlobal(
    'OffscreenCanvas',
    class {
      private width = 1;
      constructor(width: number) {
        this.width = width;
      }
      getContext() {
        const width = this.width;
        return {
          drawImage: () => {},
          getImageData: () => ({
            data: Uint8ClampedArray.from({ length: width * 4 }, (_, index) =>
              index % 4 === 3 ? alphaOf(width) : 0,
            ),
          }),
        };
      }
      async convertToBlob() {
        return new Blob(['png']);
      }
    },
  );
}

describe('Upload page', () => {
  beforeAll(async () => {
    await import('@sticky/contracts');
  });
  let items: Map<string, OwnedItem | null>;
  let recent: () => Promise<Response> | Response;

  beforeEach(() => {
    let objectUrls = 0;
    Object.assign(URL, {
      createObjectURL: () => `blob:test/${(objectUrls += 1)}`,
      revokeObjectURL: () => {},
    });
    items = new Map();
    recent = () => json({ success: true, uploads: [], next: null });
    stubApi({
      'GET /api/uploads/limits': () => json(limits),
      'GET /api/categories': () =>
        json({
          success: true,
          categories: [
            { id: 1, name: 'Reactions', path: 'Reactions', parentId: null, itemCount: 1 },
            { id: 2, name: 'Happy', path: 'Reactions/Happy', parentId: 1, itemCount: 1 },
          ],
        }),
      'GET /api/uploads': () => recent(),
      'GET /api/items/': ({ url }) => {
        const item = items.get(url.split('/').pop()!);
        return item
          ? json({ success: true, item })
          : json({ error: { code: 'not_found', message: 'There is no item with this id.' } }, 404);
      },
    });
  });
  afterEach(() => {
    Reflect.deleteProperty(URL, 'createObjectURL');
    Reflect.deleteProperty(URL, 'revokeObjectURL');
  });

  const openUploadPage = async () => {
    const view = renderInRouter(
      <Routes>
        <Route path="/upload" element={<UploadPage />} />
        <Route path="/:type/:slug" element={<p>item page</p>} />
      </Routes>,
      { url: '/upload' },
    );
    await screen.findByRole('heading', { level: 1, name: 'Upload' });
    return view;
  };
  const rows = () => within(screen.getByRole('list', { name: 'Files to upload' }));
  const row = (fileName: string) => within(rows().getByRole('listitem', { name: fileName }));

  it('adds a row for an image pasted from the clipboard', async () => {
    await openUploadPage();
    fireEvent.paste(document.body, { clipboardData: { files: [gif('screenshot.gif')] } });
    expect(await screen.findByRole('listitem', { name: 'screenshot.gif' })).toBeInTheDocument();
    expect(row('screenshot.gif').getByLabelText('Title')).toHaveValue('Screenshot');
    expect(screen.getByRole('button', { name: 'Upload 1 file' })).toBeInTheDocument();
  });

  it('adds a row for each of several files chosen with "Choose files"', async () => {
    await openUploadPage();
    const user = userEvent.setup();
    await user.upload(screen.getByLabelText('Choose files'), [
      gif('happy-dance.gif'),
      gif('sad_cat.gif'),
    ]);
    expect(rows().getAllByRole('listitem')).toHaveLength(2);
    expect(row('happy-dance.gif').getByLabelText('Title')).toHaveValue('Happy dance');
    expect(row('sad_cat.gif').getByLabelText('Title')).toHaveValue('Sad cat');
    expect(screen.getByRole('button', { name: 'Upload 2 files' })).toBeInTheDocument();
  });

  it('proposes a file with transparency as a Sticker, and the person can make it a GIF', async () => {
    // Two pixels wide: see-through; three: opaque (the stub reads the width from the size).
    stubFirstFrames((width) => (width === 2 ? 0 : 255));
    await openUploadPage();
    const user = userEvent.setup();
    await user.upload(screen.getByLabelText('Choose files'), [
      new File(['ab'], 'clear.png', { type: 'image/png' }),
      new File(['abc'], 'solid.png', { type: 'image/png' }),
    ]);
    await waitFor(() => expect(row('clear.png').getByLabelText('Type')).toHaveValue('sticker'));
    expect(row('solid.png').getByLabelText('Type')).toHaveValue('gif');
    await user.selectOptions(row('clear.png').getByLabelText('Type'), 'GIF');
    expect(row('clear.png').getByLabelText('Type')).toHaveValue('gif');
  });

  it('refuses a file that is not an image when chosen, sends none of it, and removes its row', async () => {
    stubFirstFrames(() => 255);
    // A text file named .gif: the browser cannot decode it (the stub tells it by its size).
    const gifBytes = gif('x.gif').size;
    vi.stubGlobal('createImageBitmap', async (file: File) => {
      if (file.size === gifBytes) return { width: 1, height: 1, close: () => {} };
      throw new DOMException('The source image could not be decoded.', 'InvalidStateError');
    });
    const { pending } = stubUploadRequests();
    await openUploadPage();
    const user = userEvent.setup();
    await user.upload(screen.getByLabelText('Choose files'), [
      new File(['just some notes'], 'holiday_party.gif', { type: 'image/gif' }),
      gif('party.gif'),
    ]);
    expect(await screen.findByRole('alert')).toHaveTextContent("holiday_party.gif isn't an image");
    const refused = screen.getByRole('listitem', { name: 'holiday_party.gif' });
    // One line: no fields to fill, no Retry (the same file would be refused again).
    expect(within(refused).queryByLabelText('Title')).not.toBeInTheDocument();
    expect(within(refused).queryByRole('button', { name: /Retry/ })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Upload 1 file' }));
    await waitFor(() => expect(pending).toHaveLength(1));
    expect((pending[0]!.form.get('file') as File).name).toBe('party.gif');

    await user.click(within(refused).getByRole('button', { name: 'Remove holiday_party.gif' }));
    expect(screen.queryByRole('listitem', { name: 'holiday_party.gif' })).not.toBeInTheDocument();
    expect(rows().getAllByRole('listitem')).toHaveLength(1);
  });

  it('offers Retry when the network failed, and Clear finished empties the finished rows', async () => {
    const { pending } = stubUploadRequests();
    items.set('item-1', ownedItem('item-1'));
    await openUploadPage();
    const user = userEvent.setup();
    await user.upload(screen.getByLabelText('Choose files'), [gif('party.gif')]);
    await user.click(screen.getByRole('button', { name: 'Upload 1 file' }));
    await waitFor(() => expect(pending).toHaveLength(1));
    pending[0]!.fail();

    expect(await screen.findByRole('alert')).toHaveTextContent('Could not reach the server');
    const failed = screen.getByRole('listitem', { name: 'party.gif' });
    expect(within(failed).queryByLabelText('Title')).not.toBeInTheDocument();
    await user.click(within(failed).getByRole('button', { name: 'Retry party.gif' }));
    await waitFor(() => expect(pending).toHaveLength(2));
    pending[1]!.accept({ uploadId: 'up-1', itemId: 'item-1', state: 'ready', url: '/u/up-1' });
    expect(await row('party.gif').findByText('Ready', { exact: true })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Clear finished' }));
    expect(screen.queryByRole('list', { name: 'Files to upload' })).not.toBeInTheDocument();
  });

  it('offers a still JPEG with no type until the person picks one, and sends none before', async () => {
    const { pending } = stubUploadRequests();
    await openUploadPage();
    const user = userEvent.setup();
    await user.upload(screen.getByLabelText('Choose files'), [
      new File(['jpeg'], 'beach.jpg', { type: 'image/jpeg' }),
      gif('party.gif'),
    ]);
    await waitFor(() => expect(row('beach.jpg').getByLabelText('Type')).toHaveValue(''));
    expect(row('beach.jpg').getByText(/beach\.jpg is a still image/)).toBeInTheDocument();
    expect(row('party.gif').getByLabelText('Type')).toHaveValue('gif');

    await user.click(screen.getByRole('button', { name: 'Upload 2 files' }));
    expect(await row('beach.jpg').findByRole('alert')).toHaveTextContent(
      'beach.jpg is a still image: choose whether it is a GIF or a Sticker.',
    );
    expect(row('beach.jpg').getByLabelText('Type')).toHaveAttribute('aria-invalid', 'true');
    expect(pending).toHaveLength(0);

    await user.selectOptions(row('beach.jpg').getByLabelText('Type'), 'Sticker');
    expect(row('beach.jpg').queryByRole('alert')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Upload 2 files' }));
    await waitFor(() => expect(pending).toHaveLength(2));
    const sent = new Map(
      pending.map((request) => [(request.form.get('file') as File).name, request.form.get('type')]),
    );
    expect(sent).toEqual(
      new Map([
        ['beach.jpg', 'sticker'],
        ['party.gif', 'gif'],
      ]),
    );
  });

  it('proposes a see-through still PNG as a Sticker, and asks the type of an opaque one', async () => {
    // A still PNG: its signature, then IDAT with no acTL before it; `padding` sets its size,
    // which the first-frame stub reads back as the width.
    const stillPng = (name: string, padding: number) =>
      new File(
        [
          Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, padding]),
          'IDAT',
          new Uint8Array(padding + 4),
        ],
        name,
        { type: 'image/png' },
      );
    const clear = stillPng('clear-still.png', 1);
    stubFirstFrames((width) => (width === clear.size ? 0 : 255));
    await openUploadPage();
    await userEvent
      .setup()
      .upload(screen.getByLabelText('Choose files'), [clear, stillPng('solid-still.png', 2)]);
    await waitFor(() => expect(row('solid-still.png').getByLabelText('Type')).toHaveValue(''));
    await waitFor(() =>
      expect(row('clear-still.png').getByLabelText('Type')).toHaveValue('sticker'),
    );
    expect(row('clear-still.png').queryByText(/is a still image/)).not.toBeInTheDocument();
  });

  it('asks once for the batch who may see it, by keyboard, and sends that choice with every file', async () => {
    const { pending } = stubUploadRequests();
    await openUploadPage();
    const user = userEvent.setup();
    await user.upload(screen.getByLabelText('Choose files'), [gif('one.gif'), gif('two.gif')]);
    const group = screen.getByRole('group', { name: 'Who can see these files' });
    const options = within(group).getAllByRole('radio');
    expect(options.map((option) => option.closest('label')?.textContent)).toEqual([
      'Everyone on this Sticky can find it',
      'Only people you give the link to',
      'Only you',
    ]);
    // The server's default comes first chosen.
    expect(
      within(group).getByRole('radio', { name: 'Everyone on this Sticky can find it' }),
    ).toBeChecked();
    // Keyboard only: Tab into the group, an arrow key moves the choice.
    within(group).getByRole('radio', { name: 'Everyone on this Sticky can find it' }).focus();
    await user.keyboard('{ArrowDown}');
    expect(
      within(group).getByRole('radio', { name: 'Only people you give the link to' }),
    ).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Upload 2 files' }));
    await waitFor(() => expect(pending).toHaveLength(2));
    expect(pending.map((request) => request.form.get('visibility'))).toEqual([
      'unlisted',
      'unlisted',
    ]);
  });

  it('applies one row’s category and rating to every file', async () => {
    await openUploadPage();
    const user = userEvent.setup();
    await user.upload(screen.getByLabelText('Choose files'), [
      gif('one.gif'),
      gif('two.gif'),
      gif('three.gif'),
    ]);
    // Only the categories admins made are offered.
    await user.selectOptions(row('two.gif').getByLabelText('Category'), 'Reactions/Happy');
    await user.selectOptions(row('two.gif').getByLabelText('Rating'), 'PG-13');
    await user.click(
      row('two.gif').getByRole('button', { name: 'Apply tags, category and rating to all' }),
    );
    for (const name of ['one.gif', 'three.gif']) {
      expect(row(name).getByLabelText('Category')).toHaveValue('Reactions/Happy');
      expect(row(name).getByLabelText('Rating')).toHaveValue('pg-13');
      // Titles stay each file's own.
      expect(row(name).getByLabelText('Title')).toHaveValue(name === 'one.gif' ? 'One' : 'Three');
    }
  });

  it('shows the progress, then Processing, then Ready with a link to the item page', async () => {
    const { pending } = stubUploadRequests();
    // The page asks for its recent uploads once it follows one, and again when every file is
    // sent (which cancels the first request): every request, waiting or to come, gets the answer
    // the test gives, whatever order they came in on a busy machine.
    const waiting: Array<(response: Response) => void> = [];
    let answer: (() => Response) | undefined;
    recent = () => (answer ? answer() : new Promise<Response>((resolve) => waiting.push(resolve)));
    const answerRecent = (next: () => Response) => {
      answer = next;
      for (const resolve of waiting.splice(0)) resolve(next());
    };
    items.set(
      'item-1',
      ownedItem('item-1', { details: { ...ownedItem('x').details, title: 'Party' } }),
    );
    const { router } = await openUploadPage();
    const user = userEvent.setup();
    await user.upload(screen.getByLabelText('Choose files'), [gif('party.gif')]);
    await user.click(screen.getByRole('button', { name: 'Upload 1 file' }));

    await waitFor(() => expect(pending).toHaveLength(1));
    expect(pending[0]!.form.get('title')).toBe('Party');
    pending[0]!.progress(3, 6);
    await waitFor(() =>
      expect(
        row('party.gif').getByRole('progressbar', { name: 'Sending party.gif' }),
      ).toHaveAttribute('value', '3'),
    );
    pending[0]!.accept({ uploadId: 'up-1', state: 'processing', url: '/u/up-1' });
    expect(await row('party.gif').findByText('Processing')).toBeInTheDocument();

    answerRecent(() =>
      json({
        success: true,
        uploads: [uploadRow('up-1', { state: 'ready', itemId: 'item-1' })],
        next: null,
      }),
    );
    expect(await row('party.gif').findByText('Ready', { exact: true })).toBeInTheDocument();
    // Its own item: Edit is offered once the item says so.
    expect(
      await row('party.gif').findByRole('button', { name: 'Edit details of Party' }),
    ).toBeVisible();
    await user.click(row('party.gif').getByRole('link', { name: 'Open Party' }));
    expect(router.state.location.pathname).toBe('/gif/item-1');
    expect(screen.getByText('item page')).toBeInTheDocument();
  });

  describe('a file that is already in Sticky', () => {
    const sendDuplicate = async (receipt: { itemId: string; state: 'ready' | 'hidden' }) => {
      const { pending } = stubUploadRequests();
      await openUploadPage();
      const user = userEvent.setup();
      await user.upload(screen.getByLabelText('Choose files'), [gif('my-title.gif')]);
      await user.click(screen.getByRole('button', { name: 'Upload 1 file' }));
      await waitFor(() => expect(pending).toHaveLength(1));
      pending[0]!.accept({ ...receipt, isDuplicate: true, url: null });
      return row('my-title.gif');
    };

    it('as someone else’s item: says so, links to it by its own title, and offers no Edit', async () => {
      items.set(
        'theirs',
        ownedItem('theirs', {
          details: { ...ownedItem('x').details, title: 'Their dance', type: 'sticker' },
          owner: null,
          canEdit: false,
          canDelete: false,
        }),
      );
      const result = await sendDuplicate({ itemId: 'theirs', state: 'ready' });
      expect(await result.findByRole('link', { name: 'Open Their dance' })).toHaveAttribute(
        'href',
        '/sticker/theirs',
      );
      expect(result.getByText('Already in Sticky')).toBeInTheDocument();
      expect(result.getByText(/keeps its own title, tags and uploader/)).toBeInTheDocument();
      expect(result.queryByText('Ready', { exact: true })).not.toBeInTheDocument();
      expect(result.queryByRole('link', { name: /My title/ })).not.toBeInTheDocument();
      expect(result.queryByRole('button', { name: /Edit/ })).not.toBeInTheDocument();
    });

    it('as a hidden item: says so, with no link and no Edit', async () => {
      const result = await sendDuplicate({ itemId: 'hidden-one', state: 'hidden' });
      expect(await result.findByText(/it is hidden, so it cannot be shown/)).toBeInTheDocument();
      expect(result.getByText('Already in Sticky')).toBeInTheDocument();
      expect(result.queryByRole('link')).not.toBeInTheDocument();
      expect(result.queryByRole('button', { name: /Edit/ })).not.toBeInTheDocument();
    });

    it('as the person’s own item: says they sent it before, and offers Edit', async () => {
      items.set(
        'mine',
        ownedItem('mine', { details: { ...ownedItem('x').details, title: 'Sent last week' } }),
      );
      const result = await sendDuplicate({ itemId: 'mine', state: 'ready' });
      expect(await result.findByRole('link', { name: 'Open Sent last week' })).toBeVisible();
      expect(result.getByText(/You uploaded this file before/)).toBeInTheDocument();
      expect(result.getByRole('button', { name: 'Edit details of Sent last week' })).toBeVisible();
    });
  });
});
