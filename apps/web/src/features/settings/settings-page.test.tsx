import type { ApiToken, CreateTokenRequest } from '@sticky/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { json, stubApi } from '@/test-support/api.ts';
import { renderRoute, testUser } from '@/test-support/render.tsx';
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
        scopes: ['upload', 'items'],
        expiresAt: '2025-04-02T10:00:00.000Z',
      },
      {
        id: 't2',
        name: 'CI job',
        visibility: 'public',
        createdAt: '2025-01-03T10:00:00.000Z',
        lastUsedAt: '2025-01-05T10:00:00.000Z',
        scopes: ['read'],
        expiresAt: '2999-01-03T10:00:00.000Z',
      },
    ];
    api = stubApi({
      'GET /api/tokens': () => json({ success: true, tokens }),
      'POST /api/tokens': ({ body }) => {
        const request = body as CreateTokenRequest;
        const token = {
          id: 't3',
          name: request.name,
          visibility: request.visibility,
          createdAt: '2025-01-04T10:00:00.000Z',
          lastUsedAt: null,
          scopes: request.scopes,
          expiresAt: new Date(Date.now() + request.expiresInDays * 86_400_000).toISOString(),
        };
        tokens = [token, ...tokens];
        return json({ success: true, token, secret }, 201);
      },
      'DELETE /api/tokens/': ({ url }) => {
        const id = url.split('/').pop()!;
        tokens = tokens.filter((token) => token.id !== id);
        return json({ success: true, id });
      },
      'DELETE /api/tokens': () => {
        const revoked = tokens.length;
        tokens = [];
        return json({ success: true, revoked });
      },
    });
  });

  const renderSettings = async (session = testUser) => {
    renderRoute(<SettingsPage />, { path: '/settings', url: '/settings', session });
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
        { name: 'ShareX', scopes: ['upload'], expiresInDays: 90, visibility: 'unlisted' },
        { name: 'Diary', scopes: ['upload'], expiresInDays: 90, visibility: 'private' },
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

  it('makes a token with the scopes and lifetime chosen, each scope saying what it allows', async () => {
    await renderSettings();
    const user = userEvent.setup();
    const scopes = screen.getByRole('group', { name: 'What the token may do' });
    // Upload is the default; a non-admin is not offered admin.
    expect(within(scopes).getByRole('checkbox', { name: 'Upload' })).toBeChecked();
    expect(within(scopes).getByRole('checkbox', { name: 'Edit your items' })).not.toBeChecked();
    expect(within(scopes).queryByRole('checkbox', { name: 'Admin' })).not.toBeInTheDocument();
    expect(
      within(scopes).getByRole('checkbox', { name: 'Edit your items' }),
    ).toHaveAccessibleDescription(
      'Change the title, tags and details of what you uploaded, and delete it.',
    );
    expect(within(scopes).getByRole('checkbox', { name: 'Read' })).toHaveAccessibleDescription(
      /Search and browse this Sticky as you, through the GIPHY and Tenor APIs/,
    );
    expect(screen.getByLabelText('Expires after')).toHaveValue('90');

    await user.type(screen.getByLabelText('Token name'), 'Editor');
    await user.click(within(scopes).getByRole('checkbox', { name: 'Upload' }));
    await user.click(within(scopes).getByRole('checkbox', { name: 'Edit your items' }));
    await user.keyboard(' ');
    await user.click(within(scopes).getByRole('checkbox', { name: 'Read' }));
    await user.selectOptions(screen.getByLabelText('Expires after'), '7 days');
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    await screen.findByRole('heading', { name: 'Your new token' });
    // The space bar toggled the focused checkbox back: only `read` is left.
    expect(api.calls.find((call) => call.method === 'POST')?.body).toEqual({
      name: 'Editor',
      scopes: ['read'],
      expiresInDays: 7,
      visibility: 'unlisted',
    });
    const list = screen.getByRole('list', { name: 'Your API tokens' });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(3));
    expect(within(list).getAllByRole('listitem')[0]).toHaveTextContent('May: Read');
  });

  it('offers the admin scope to admins', async () => {
    await renderSettings({ ...testUser, isAdmin: true });
    const scopes = screen.getByRole('group', { name: 'What the token may do' });
    const admin = within(scopes).getByRole('checkbox', { name: 'Admin' });
    expect(admin).not.toBeChecked();
    expect(admin).toHaveAccessibleDescription(/Use your admin rights/);
  });

  it('says what is missing instead of sending a token without a name or a scope', async () => {
    await renderSettings();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Name the token, so you know later what uses it.',
    );
    expect(screen.getByLabelText('Token name')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Token name')).toHaveAccessibleDescription(
      'Name the token, so you know later what uses it.',
    );
    await user.type(screen.getByLabelText('Token name'), 'Nothing');
    await user.click(screen.getByRole('checkbox', { name: 'Upload' }));
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Choose at least one thing the token may do.',
    );
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('says what to do when there is no token, and its button goes to the token’s name', async () => {
    tokens = [];
    renderRoute(<SettingsPage />, { path: '/settings', url: '/settings' });
    expect(await screen.findByText('No tokens yet.')).toBeInTheDocument();
    expect(screen.getByText(/^Name one above, choose what it may do/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Create your first token' }));
    expect(screen.getByLabelText('Token name')).toHaveFocus();
  });

  it('lists each token with what it may do, its last use and its expiry', async () => {
    await renderSettings();
    const [old, ci] = within(screen.getByRole('list', { name: 'Your API tokens' })).getAllByRole(
      'listitem',
    );
    expect(old).toHaveTextContent('never used');
    expect(old).toHaveTextContent(
      `expired ${new Date('2025-04-02T10:00:00.000Z').toLocaleDateString()}`,
    );
    expect(old).toHaveTextContent('May: Upload, Edit your items');
    expect(ci).toHaveTextContent(
      `last used ${new Date('2025-01-05T10:00:00.000Z').toLocaleString()}`,
    );
    expect(ci).toHaveTextContent(
      `expires ${new Date('2999-01-03T10:00:00.000Z').toLocaleDateString()}`,
    );
    expect(ci).toHaveTextContent('May: Read');
  });

  it('revokes every token, beside signing out everywhere, only after the person confirms', async () => {
    await renderSettings();
    const user = userEvent.setup();
    const access = screen.getByRole('region', { name: 'Sessions and tokens' });
    expect(within(access).getByRole('button', { name: 'Sign out everywhere' })).toBeVisible();
    await user.click(within(access).getByRole('button', { name: 'Revoke every token' }));
    let dialog = await screen.findByRole('dialog', { name: 'Revoke every token?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.calls.filter((call) => call.method === 'DELETE')).toEqual([]);

    await user.click(within(access).getByRole('button', { name: 'Revoke every token' }));
    dialog = await screen.findByRole('dialog', { name: 'Revoke every token?' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke every token' }));
    expect(await screen.findByText('No tokens yet.')).toBeInTheDocument();
    expect(api.calls.filter((call) => call.method === 'DELETE').map((call) => call.url)).toEqual([
      '/api/tokens',
    ]);
  });
});
