import type { ApiToken } from '@sticky/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { json, stubApi } from '@/test-support/api.ts';
import { renderRoute } from '@/test-support/render.tsx';
import { SettingsPage } from './settings-page.tsx';

const secret = 'sticky_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG';

const codeOf = (caption: string) =>
  within(screen.getByRole('figure', { name: caption })).getByRole('code').textContent ?? '';

describe('Settings: API tokens', () => {
  beforeAll(async () => {
    await import('@sticky/contracts');
  });
  let tokens: ApiToken[];
  let api: ReturnType<typeof stubApi>;

  beforeEach(() => {
    tokens = [
      {
        id: 't1',
        name: 'Old laptop',
        visibility: 'unlisted',
        createdAt: '2025-01-02T10:00:00.000Z',
        lastUsedAt: null,
      },
      {
        id: 't2',
        name: 'CI job',
        visibility: 'public',
        createdAt: '2025-01-03T10:00:00.000Z',
        lastUsedAt: null,
      },
    ];
    api = stubApi({
      'GET /api/tokens': () => json({ success: true, tokens }),
      'POST /api/tokens': ({ body }) => {
        const sent = body as { name: string; visibility: ApiToken['visibility'] };
        const token = {
          id: 't3',
          name: sent.name,
          visibility: sent.visibility,
          createdAt: '2025-01-04T10:00:00.000Z',
          lastUsedAt: null,
        };
        tokens = [token, ...tokens];
        return json({ success: true, token, secret }, 201);
      },
      'DELETE /api/tokens/': ({ url }) => {
        const id = url.split('/').pop()!;
        tokens = tokens.filter((token) => token.id !== id);
        return json({ success: true, id });
      },
    });
  });

  const renderSettings = async () => {
    renderRoute(<SettingsPage />, { path: '/settings', url: '/settings' });
    await screen.findByRole('list', { name: 'Your API tokens' });
  };

  it('shows the curl command and ShareX uploader before a token exists, then with the real token', async () => {
    await renderSettings();
    const origin = window.location.origin;
    expect(codeOf('Upload with curl')).toBe(
      [
        'curl -H "Authorization: Bearer <your token>" \\',
        '  -F "file=@cat.gif" -F "tags=cat,funny" \\',
        `  ${origin}/api/uploads`,
      ].join('\n'),
    );
    const placeholderShareX = JSON.parse(codeOf('ShareX custom uploader (sticky.sxcu)')) as Record<
      string,
      unknown
    >;
    expect(placeholderShareX).toMatchObject({
      RequestURL: `${origin}/api/uploads`,
      Headers: { Authorization: 'Bearer <your token>' },
    });

    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Token name'), 'ShareX');
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    await screen.findByRole('heading', { name: 'Your new token' });
    expect(codeOf('Upload with curl')).toContain(`-H "Authorization: Bearer ${secret}"`);
    expect(codeOf('Upload with curl')).not.toContain('<your token>');
    const shareX = JSON.parse(codeOf('ShareX custom uploader (sticky.sxcu)')) as Record<
      string,
      unknown
    >;
    expect(shareX).toMatchObject({ Headers: { Authorization: `Bearer ${secret}` } });

    // Done: the secret is not shown again, and the examples go back to the placeholder.
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByText(secret)).not.toBeInTheDocument();
    expect(codeOf('Upload with curl')).toContain('Bearer <your token>');
  });

  it('makes a token whose uploads are unlisted unless the person picks otherwise', async () => {
    await renderSettings();
    const user = userEvent.setup();
    const group = screen.getByRole('group', {
      name: 'Who can see what is uploaded with this token',
    });
    expect(
      within(group).getByRole('radio', { name: 'Only people you give the link to' }),
    ).toBeChecked();
    await user.type(screen.getByLabelText('Token name'), 'ShareX');
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    await screen.findByRole('heading', { name: 'Your new token' });
    await user.click(within(group).getByRole('radio', { name: 'Only you' }));
    await user.type(screen.getByLabelText('Token name'), 'Diary');
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    await waitFor(() =>
      expect(api.calls.filter((call) => call.method === 'POST').map((call) => call.body)).toEqual([
        { name: 'ShareX', visibility: 'unlisted' },
        { name: 'Diary', visibility: 'private' },
      ]),
    );
    // Each token says what its uploads get.
    const list = screen.getByRole('list', { name: 'Your API tokens' });
    await waitFor(() =>
      expect(
        within(list)
          .getAllByRole('listitem')
          .map((item) => item.textContent),
      ).toEqual([
        expect.stringMatching(/^Diary\s*Only you/),
        expect.stringMatching(/^ShareX\s*Only people you give the link to/),
        expect.stringMatching(/^Old laptop\s*Only people you give the link to/),
        expect.stringMatching(/^CI job\s*Everyone on this Sticky can find it/),
      ]),
    );
  });

  it('revokes a token only after the person confirms, and it leaves the list', async () => {
    await renderSettings();
    const user = userEvent.setup();
    const list = screen.getByRole('list', { name: 'Your API tokens' });

    await user.click(within(list).getByRole('button', { name: 'Revoke Old laptop' }));
    let dialog = await screen.findByRole('dialog', { name: 'Revoke this token?' });
    expect(dialog).toHaveTextContent('Old laptop');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.calls.filter((call) => call.method === 'DELETE')).toEqual([]);
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);

    await user.click(within(list).getByRole('button', { name: 'Revoke Old laptop' }));
    dialog = await screen.findByRole('dialog', { name: 'Revoke this token?' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke token' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.calls.filter((call) => call.method === 'DELETE').map((call) => call.url)).toEqual([
      '/api/tokens/t1',
    ]);
    expect(within(list).getByRole('listitem')).toHaveTextContent('CI job');
  });
});
