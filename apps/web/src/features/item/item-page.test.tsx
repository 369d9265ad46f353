import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ContentItem } from '@/features/content';
import { json, stubApi } from '@/test-support/api.ts';
import { installDom } from '@/test-support/dom.ts';
import { setUpFakeContent } from '@/test-support/content.ts';
import { fixtureFiles, listOf, loadItem, loadList } from '@/test-support/giphy-fixtures.ts';
import { renderRoute, testUser } from '@/test-support/render.tsx';
import { ItemPage } from './item-page.tsx';

// Whether the code that edits items was ever downloaded (imported) by the page.
const editCode = vi.hoisted(() => ({ isLoaded: false }));
vi.mock('@/features/uploads', async (importOriginal) => {
  editCode.isLoaded = true;
  return importOriginal();
});

function withUser(item: ContentItem, user: Record<string, unknown> | undefined): ContentItem {
  return { ...item, user: user as unknown as ContentItem['user'] };
}

const content = setUpFakeContent();
const renderItem = (url: string) =>
  renderRoute(<ItemPage />, { path: '/:type/:slug', url, content });

describe('ItemPage type check', () => {
  it('fails with Invalid Content Type for any other type', async () => {
    renderItem('/video/some-slug-abc123');
    expect(screen.getByRole('heading', { name: 'Invalid Content Type' })).toBeInTheDocument();
  });
});

describe('ItemPage', () => {
  // The API client loads the contracts on demand; a cold first load must not eat the
  // assertions' time.
  beforeAll(async () => {
    await import('@sticky/contracts');
  });
  let api: ReturnType<typeof stubApi>;
  let item: ContentItem;
  let favoriteIds: string[];
  let rights: Record<string, unknown>;

  beforeEach(() => {
    rights = { canEdit: false, canDelete: false, canHide: false };
    item = loadItem(fixtureFiles.single);
    content.gf.gif.mockResolvedValue({ data: item, meta: { response_id: 'r' } });
    content.gf.related.mockResolvedValue(loadList(fixtureFiles.search));
    favoriteIds = [];
    api = stubApi({
      'GET /api/favorites': () => json({ success: true, ids: favoriteIds }),
      'PUT /api/favorites/': ({ url }) =>
        json({ success: true, id: url.split('/').pop(), isFavorite: true }),
      'DELETE /api/favorites/': ({ url }) =>
        json({ success: true, id: url.split('/').pop(), isFavorite: false }),
      'POST /api/events': () => new Response(null, { status: 204 }),
      'GET /api/items/': () =>
        json({
          success: true,
          item: {
            id: item.id,
            details: {
              title: item.title,
              tags: [],
              type: 'gif',
              category: null,
              rating: 'g',
              sourceUrl: '',
              caption: '',
            },
            visibility: 'public',
            isHidden: false,
            owner: null,
            ...rights,
          },
        }),
    });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const openItem = async () => {
    const view = renderItem(`/gif/${item.slug}`);
    await screen.findByRole('heading', { level: 1, name: item.title });
    return view;
  };

  /** Answers `POST /api/items/{id}/reports`, keeping what was sent (or refusing it). */
  const stubReports = (sent: unknown[], refusal?: { status: number; message: string }) => {
    const answer = api.fetchMock.getMockImplementation()!;
    api.fetchMock.mockImplementation(async (input, init) => {
      const url = String(input);
      if (init?.method === 'POST' && url.endsWith('/reports')) {
        if (refusal) {
          return json(
            { success: false, error: { code: 'conflict', message: refusal.message } },
            refusal.status,
          );
        }
        sent.push(JSON.parse(String(init.body)));
        return json({ success: true, report: { id: 'r1', state: 'open' } }, 201);
      }
      return answer(input, init);
    });
  };

  it('reads the id from the last part of the slug and shows title, item and creator', async () => {
    await openItem();
    expect(content.gf.gif).toHaveBeenCalledWith('l0HlyLQsbvhciAuKA');
    const creator = screen.getByRole('region', { name: 'Creator' });
    const user = item.user as unknown as { display_name: string; username: string };
    expect(within(creator).getByText(user.display_name)).toBeInTheDocument();
    expect(within(creator).getByText(`@${user.username}`)).toBeInTheDocument();
    expect(screen.getByRole('img', { name: item.title })).toBeInTheDocument();
  });

  it('shows the text in the GIF, and says it after the title in the alt text', async () => {
    await openItem();
    expect(screen.queryByRole('heading', { name: /^Text in this/ })).not.toBeInTheDocument();
    cleanup();

    item = { ...item, alt_text: '', caption: 'when the code works' } as ContentItem;
    content.gf.gif.mockResolvedValue({ data: item, meta: { response_id: 'r' } });
    await openItem();
    const section = screen.getByRole('region', { name: 'Text in this GIF' });
    expect(within(section).getByText('when the code works')).toBeInTheDocument();
    expect(
      screen.getByRole('img', { name: `${item.title} “when the code works”` }),
    ).toBeInTheDocument();
  });

  it('shows the GIF before the creator on a phone, the creator in the left column when wide', async () => {
    await openItem();
    const media = screen.getByRole('img', { name: item.title });
    const creator = screen.getByRole('region', { name: 'Creator' });
    expect(media.compareDocumentPosition(creator) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(creator.closest('aside')).toHaveClass('lg:col-start-1', 'lg:row-start-1');
  });

  it('offers Edit and Delete only to whom /api/items says may use them', async () => {
    await openItem();
    await waitFor(() =>
      expect(api.calls.some((call) => call.url === `/api/items/${item.id}`)).toBe(true),
    );
    expect(screen.queryByRole('group', { name: 'Manage this item' })).not.toBeInTheDocument();
    expect(editCode.isLoaded).toBe(false);
    cleanup();

    rights = { canEdit: true, canDelete: true, canHide: false };
    await openItem();
    // Its code downloads only now, on first use.
    const manage = await screen.findByRole('group', { name: 'Manage this item' });
    expect(within(manage).getByRole('button', { name: 'Edit' })).toBeInTheDocument();
    expect(within(manage).getByRole('button', { name: 'Delete' })).toBeInTheDocument();
    expect(within(manage).queryByRole('button', { name: /Hide/ })).not.toBeInTheDocument();
    expect(editCode.isLoaded).toBe(true);
  });

  it('lets whoever may edit the item correct its text, sent as its caption', async () => {
    rights = { canEdit: true, canDelete: false, canHide: false };
    const sent: unknown[] = [];
    const answer = api.fetchMock.getMockImplementation()!;
    api.fetchMock.mockImplementation(async (input, init) => {
      if (init?.method === 'PATCH') {
        sent.push(JSON.parse(String(init.body)));
        return answer(String(input), { ...init, method: 'GET' });
      }
      return answer(input, init);
    });
    await openItem();
    const manage = await screen.findByRole('group', { name: 'Manage this item' });
    await userEvent.click(within(manage).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit item' });
    await userEvent.type(
      within(dialog).getByRole('textbox', { name: 'Text in the image' }),
      'so glad',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent).toEqual([expect.objectContaining({ caption: 'so glad' })]));
  });

  it('reports an item: a reason is required, the note is sent, the dialog closes and says so', async () => {
    const reports: unknown[] = [];
    const user = userEvent.setup();
    stubReports(reports);
    await openItem();
    await user.click(await screen.findByRole('button', { name: 'Report' }));
    const dialog = await screen.findByRole('dialog', { name: 'Report this item' });
    await user.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Choose a reason.');
    expect(reports).toEqual([]);

    await user.click(within(dialog).getByRole('radio', { name: 'Harassment or hate' }));
    await user.type(within(dialog).getByLabelText('Note (optional)'), 'Targets a person');
    await user.click(within(dialog).getByRole('button', { name: 'Send report' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Report this item' })).not.toBeInTheDocument(),
    );
    expect(reports).toEqual([{ reason: 'harassment', note: 'Targets a person' }]);
    expect(await screen.findByText(/Report sent/)).toBeInTheDocument();
  });

  it('shows why a report was refused, and offers no Report to who manages the item', async () => {
    const user = userEvent.setup();
    stubReports([], {
      status: 409,
      message: 'You have already reported this item; an admin will look at your report.',
    });
    await openItem();
    await user.click(await screen.findByRole('button', { name: 'Report' }));
    const dialog = await screen.findByRole('dialog', { name: 'Report this item' });
    await user.click(within(dialog).getByRole('radio', { name: 'Spam' }));
    await user.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(/already reported/);
    cleanup();

    rights = { canEdit: true, canDelete: true, canHide: false };
    await openItem();
    await screen.findByRole('group', { name: 'Manage this item' });
    expect(screen.queryByRole('button', { name: 'Report' })).not.toBeInTheDocument();
  });

  it('records a view of the item', async () => {
    await openItem();
    await waitFor(() =>
      expect(api.calls).toContainEqual(
        expect.objectContaining({
          method: 'POST',
          url: '/api/events',
          body: { type: 'view', id: 'l0HlyLQsbvhciAuKA' },
        }),
      ),
    );
  });

  it('cuts the description at 60 characters with Read More / Read Less', async () => {
    const description =
      'A description that is clearly longer than sixty characters, so it gets cut.';
    item = withUser(item, { ...(item.user as object), description });
    content.gf.gif.mockResolvedValue({ data: item, meta: { response_id: 'r' } });
    await openItem();
    const preview = `${description.slice(0, 60)}...`;
    expect(screen.getByText(preview)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Read More' }));
    expect(screen.getByText(description)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Read Less' }));
    expect(screen.getByText(preview)).toBeInTheDocument();
  });

  it('shows a short description whole, without a toggle', async () => {
    item = withUser(item, { ...(item.user as object), description: 'Short and sweet.' });
    content.gf.gif.mockResolvedValue({ data: item, meta: { response_id: 'r' } });
    await openItem();
    expect(screen.getByText('Short and sweet.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Read More' })).not.toBeInTheDocument();
  });

  it('says No user Found without a user', async () => {
    content.gf.gif.mockResolvedValue({
      data: withUser(item, undefined),
      meta: { response_id: 'r' },
    });
    await openItem();
    expect(screen.getByText('No user Found')).toBeInTheDocument();
  });

  it('opens the source in a new tab without leaking the opener', async () => {
    await openItem();
    const link = within(screen.getByRole('region', { name: 'Source' })).getByRole('link');
    expect(link).toHaveAttribute('href', item.source);
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('says No source available without a (web) source', async () => {
    content.gf.gif.mockResolvedValue({
      data: { ...item, source: 'javascript:alert(1)' },
      meta: { response_id: 'r' },
    });
    await openItem();
    expect(screen.getByText('No source available')).toBeInTheDocument();
  });

  it('tells the owner of a private item that only they can see it, and lists no related', async () => {
    const owner = { id: testUser.id, name: testUser.name, email: testUser.email };
    rights = { canEdit: true, canDelete: true, canHide: false, visibility: 'private', owner };
    await openItem();
    expect(await screen.findByText('Only you can see this')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Related Gifs' })).not.toBeInTheDocument();
    expect(screen.queryByText(/Hidden by an admin/)).not.toBeInTheDocument();
    cleanup();

    // An admin opening someone else's hidden item is told so.
    rights = {
      canEdit: true,
      canDelete: true,
      canHide: true,
      visibility: 'public',
      isHidden: true,
      owner: { id: 'someone', name: 'Someone', email: 'someone@example.com' },
    };
    await openItem();
    expect(
      await screen.findByText('Hidden by an admin: only its owner and admins can see this'),
    ).toBeInTheDocument();
    expect(screen.queryByText('Only you can see this')).not.toBeInTheDocument();
    cleanup();

    // A public item says nothing of the kind, and lists its related.
    rights = { canEdit: true, canDelete: true, canHide: false, visibility: 'public', owner };
    await openItem();
    await waitFor(() =>
      expect(api.calls.some((call) => call.url === `/api/items/${item.id}`)).toBe(true),
    );
    expect(await screen.findByRole('list', { name: 'Related Gifs' })).toBeInTheDocument();
    expect(screen.queryByText('Only you can see this')).not.toBeInTheDocument();
  });

  it('shows Related Gifs from 15 fetched, skipping the first', async () => {
    const related = loadList(fixtureFiles.search);
    content.gf.related.mockResolvedValue(related);
    await openItem();
    expect(screen.getByRole('heading', { name: 'Related Gifs' })).toBeInTheDocument();
    const grid = await screen.findByRole('list', { name: 'Related Gifs' });
    const hrefs = within(grid)
      .getAllByRole('link')
      .map((link) => link.getAttribute('href'));
    expect(hrefs).toEqual(related.data.slice(1).map((other) => `/gif/${other.slug}`));
    expect(content.gf.related).toHaveBeenCalledWith('l0HlyLQsbvhciAuKA', {
      limit: 15,
      offset: 0,
      type: 'gifs',
    });
  });

  it('says No related Gifs found when only the skipped one comes back', async () => {
    content.gf.related.mockResolvedValue(listOf(loadList(fixtureFiles.search).data.slice(0, 1)));
    await openItem();
    expect(await screen.findByText('No related Gifs found')).toBeInTheDocument();
  });

  it('shows the client error with Retry when the item cannot be fetched', async () => {
    content.gf.gif.mockRejectedValueOnce(new Error('@giphy/js-fetch-api: Not Found'));
    renderItem('/gif/missing-id123');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('@giphy/js-fetch-api: Not Found');
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { level: 1, name: item.title })).toBeInTheDocument();
  });

  it('toggles the favourite with the spec’s toasts, on the server and in favGifs', async () => {
    await openItem();
    const button = screen.getByRole('button', { name: 'Favorite' });
    // The account's list has loaded (and been mirrored) before the toggle.
    await waitFor(() => expect(localStorage.getItem('favGifsOwner')).toBe(testUser.id));
    expect(button).toHaveAttribute('aria-pressed', 'false');

    await userEvent.click(button);
    expect(await screen.findByText('Added to Favorites')).toBeInTheDocument();
    expect(button).toHaveAttribute('aria-pressed', 'true');
    expect(api.calls).toContainEqual(
      expect.objectContaining({ method: 'PUT', url: '/api/favorites/l0HlyLQsbvhciAuKA' }),
    );
    expect(JSON.parse(localStorage.getItem('favGifs')!)).toEqual(['l0HlyLQsbvhciAuKA']);

    await userEvent.click(button);
    expect(await screen.findByText('Removed from Favorites')).toBeInTheDocument();
    expect(button).toHaveAttribute('aria-pressed', 'false');
    expect(api.calls).toContainEqual(
      expect.objectContaining({ method: 'DELETE', url: '/api/favorites/l0HlyLQsbvhciAuKA' }),
    );
    expect(JSON.parse(localStorage.getItem('favGifs')!)).toEqual([]);
  });

  it('puts the favourite back and says why when the server refuses', async () => {
    api.fetchMock.mockImplementation(async (_input: RequestInfo | URL, init?: RequestInit) => {
      if (init?.method === 'PUT') {
        return json(
          {
            success: false,
            error: { code: 'conflict', message: 'You can keep up to 2000 favourites.' },
          },
          409,
        );
      }
      return json({ success: true, ids: [] });
    });
    await openItem();
    const button = screen.getByRole('button', { name: 'Favorite' });
    await userEvent.click(button);
    expect(await screen.findByText('You can keep up to 2000 favourites.')).toBeInTheDocument();
    expect(button).toHaveAttribute('aria-pressed', 'false');
  });

  it('copies the original URL, says Link Copied! and highlights the link icon for 3000 ms', async () => {
    const writeText = vi.fn(async (_text: string) => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    try {
      await openItem();
      const button = screen.getByRole('button', { name: 'Copy link' });
      const icon = () => button.querySelector('[data-highlighted]');
      expect(icon()).toHaveAttribute('data-highlighted', 'false');

      // From the click on, only the test moves the clock. (fireEvent, not user-event: its
      // wrapper waits on a timer that this clock would never fire.)
      vi.useFakeTimers({ shouldAdvanceTime: false });
      fireEvent.click(button);
      await act(async () => {});
      expect(writeText).toHaveBeenCalledWith(item.images.original.url);
      expect(icon()).toHaveAttribute('data-highlighted', 'true');
      act(() => vi.advanceTimersByTime(2999));
      expect(icon()).toHaveAttribute('data-highlighted', 'true');
      act(() => vi.advanceTimersByTime(1));
      expect(icon()).toHaveAttribute('data-highlighted', 'false');
      vi.useRealTimers();

      expect(await screen.findByText('Link Copied!')).toBeInTheDocument();
      await waitFor(() =>
        expect(api.calls).toContainEqual(
          expect.objectContaining({
            method: 'POST',
            url: '/api/events',
            body: { type: 'copy', id: 'l0HlyLQsbvhciAuKA' },
          }),
        ),
      );
    } finally {
      Reflect.deleteProperty(navigator, 'clipboard');
    }
  });

  describe('download', () => {
    let clicked: { href: string; download: string }[];
    beforeEach(() => {
      clicked = [];
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
        this: HTMLAnchorElement,
      ) {
        clicked.push({ href: this.href, download: this.download });
      });
      URL.createObjectURL = vi.fn(() => 'blob:http://localhost/file');
      URL.revokeObjectURL = vi.fn();
    });

    it('fetches the original as a blob and saves it as <slug>.gif', async () => {
      await openItem();
      const original = item.images.original.url;
      const before = api.fetchMock.getMockImplementation()!;
      api.fetchMock.mockImplementation(async (input, init) => {
        if (String(input) === original) {
          return new Response('GIF89a', { status: 200, headers: { 'content-type': 'image/gif' } });
        }
        return before(input, init);
      });
      await userEvent.click(screen.getByRole('button', { name: 'Download' }));
      expect(await screen.findByText('Gif Downloaded')).toBeInTheDocument();
      expect(clicked).toEqual([
        { href: 'blob:http://localhost/file', download: `${item.slug}.gif` },
      ]);
      expect(api.fetchMock).toHaveBeenCalledWith(original, expect.anything());
    });

    it('names a WebP original .webp', async () => {
      await openItem();
      api.fetchMock.mockImplementation(async (input) =>
        String(input).startsWith('https://')
          ? new Response('RIFF', { status: 200, headers: { 'content-type': 'image/webp' } })
          : new Response(null, { status: 204 }),
      );
      await userEvent.click(screen.getByRole('button', { name: 'Download' }));
      await screen.findByText('Gif Downloaded');
      expect(clicked[0]!.download).toBe(`${item.slug}.webp`);
    });

    it('logs a failure and shows it as an error toast', async () => {
      const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
      await openItem();
      api.fetchMock.mockImplementation(async (input) =>
        String(input).startsWith('https://')
          ? new Response('gone', { status: 404 })
          : new Response(null, { status: 204 }),
      );
      await userEvent.click(screen.getByRole('button', { name: 'Download' }));
      expect(
        await screen.findByText('Download failed: Download failed (HTTP 404)'),
      ).toBeInTheDocument();
      expect(consoleError).toHaveBeenCalled();
      expect(clicked).toEqual([]);
    });

    it('does nothing without a url', async () => {
      const noUrl = {
        ...item,
        images: { ...item.images, original: { ...item.images.original, url: '' } },
      };
      content.gf.gif.mockResolvedValue({ data: noUrl, meta: { response_id: 'r' } });
      await openItem();
      const button = screen.getByRole('button', { name: 'Download' });
      expect(button).toBeDisabled();
      await userEvent.click(button);
      expect(clicked).toEqual([]);
    });
  });

  describe('in a browser that plays video', () => {
    const played: HTMLMediaElement[] = [];
    beforeEach(() => {
      played.length = 0;
      vi.spyOn(navigator, 'vendor', 'get').mockReturnValue('Google Inc.');
      vi.spyOn(HTMLMediaElement.prototype, 'canPlayType').mockReturnValue('probably');
      vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (
        this: HTMLMediaElement,
      ) {
        played.push(this);
        return Promise.resolve();
      });
      vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => {});
      vi.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => {});
    });
    afterEach(() => {
      // Unmounted while the media stubs stand: jsdom has no media playback of its own.
      cleanup();
      vi.restoreAllMocks();
    });
    const mp4Of = (rendition: unknown) => (rendition as { mp4: string }).mp4;
    // The item's own media (the related grid below has videos of its own).
    const shown = () => screen.getByRole('img', { name: item.title });

    it('plays the original’s MP4 with its still as poster, named by the alt text', async () => {
      await openItem();
      const video = shown().querySelector('video')!;
      expect(video.getAttribute('src')).toBe(mp4Of(item.images.original));
      expect(video.getAttribute('poster')).toBe(item.images.original_still.url);
      expect(video.muted && video.loop && video.playsInline).toBe(true);
      expect(played).toEqual([video]);
    });

    it("never plays a small tile's MP4 scaled up for a wide upload whose larger sizes are not made", async () => {
      // Our `/v1` answers slots not made yet with the nearest made one (the 200 px tile's MP4).
      const tile = { url: '/m/200w.gif', mp4: '/m/200w.mp4', width: 200, height: 50 };
      const original = { url: '/m/o.gif', webp: '/m/o.webp', width: 1200, height: 300 };
      item = {
        ...item,
        images: {
          ...item.images,
          original,
          original_still: { url: '/m/o_s.gif', width: 1200, height: 300 },
          original_mp4: tile,
          downsized: original,
          downsized_large: original,
          downsized_medium: original,
          fixed_width: tile,
          fixed_height: original,
        } as unknown as ContentItem['images'],
      };
      content.gf.gif.mockResolvedValue({ data: item, meta: { response_id: 'r' } });
      await openItem();
      expect(shown().querySelector('video')).toBeNull();
      const picture = shown().closest('picture') ?? shown();
      expect(picture.outerHTML).toContain('/m/o.webp');
      expect(picture.outerHTML).not.toContain('200w');
    });

    it('pauses to the still frame and plays the video again', async () => {
      await openItem();
      await userEvent.click(screen.getByRole('button', { name: 'Pause animation' }));
      expect(shown().tagName).toBe('IMG');
      expect(shown()).toHaveAttribute('src', item.images.original_still.url);
      await userEvent.click(screen.getByRole('button', { name: 'Play animation' }));
      const video = shown().querySelector('video')!;
      expect(video.getAttribute('src')).toBe(mp4Of(item.images.original));
      expect(played.at(-1)).toBe(video);
    });

    it('starts paused on the still with reduced motion, loading no video', async () => {
      installDom(['(prefers-reduced-motion: reduce)']);
      await openItem();
      expect(screen.getByRole('button', { name: 'Play animation' })).toBeInTheDocument();
      expect(shown()).toHaveAttribute('src', item.images.original_still.url);
      expect(document.querySelector('video')).toBeNull();
    });

    it('shows the image when the video cannot play', async () => {
      await openItem();
      fireEvent.error(shown().querySelector('video')!);
      await waitFor(() => expect(shown().tagName).toBe('IMG'));
      expect(shown()).toHaveAttribute('src', item.images.original.url);
    });

    it('shows a sticker as animated WebP, never its MP4; its WebM where there is one', async () => {
      const sticker = loadList(fixtureFiles.stickers).data[0]!;
      content.gf.gif.mockResolvedValue({ data: sticker, meta: { response_id: 'r' } });
      const view = renderItem(`/sticker/${sticker.slug}`);
      await screen.findByRole('heading', { level: 1, name: sticker.title });
      const stickerMedia = screen.getByRole('img', { name: sticker.title });
      expect(stickerMedia.tagName).toBe('IMG');
      expect(stickerMedia.parentElement?.querySelector('source')).toHaveAttribute(
        'srcset',
        (sticker.images.original as { webp?: string }).webp,
      );
      view.unmount();

      const webm = 'https://sticky.test/original.webm';
      const withWebm = {
        ...sticker,
        images: { ...sticker.images, original: { ...sticker.images.original, webm } },
      };
      content.gf.gif.mockResolvedValue({ data: withWebm, meta: { response_id: 'r' } });
      renderItem(`/sticker/${sticker.slug}`);
      await screen.findByRole('heading', { level: 1, name: sticker.title });
      expect(
        screen
          .getByRole('img', { name: sticker.title })
          .querySelector('video')
          ?.getAttribute('src'),
      ).toBe(webm);
    });
  });

  // jsdom plays no video: the animated image itself, which a browser without video shows.
  it('pauses an animated image (no video playback) to its still, and plays the same image again', async () => {
    await openItem();
    const shown = () => screen.getByRole('img', { name: item.title });
    expect(shown().tagName).toBe('IMG');
    expect(shown()).toHaveAttribute('src', item.images.original.url);
    await userEvent.click(screen.getByRole('button', { name: 'Pause animation' }));
    expect(shown()).toHaveAttribute('src', item.images.original_still.url);
    await userEvent.click(screen.getByRole('button', { name: 'Play animation' }));
    expect(shown()).toHaveAttribute('src', item.images.original.url);
  });
});
