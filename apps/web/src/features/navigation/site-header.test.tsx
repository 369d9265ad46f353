import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { json, stubApi } from '@/test-support/api.ts';
import { installDom } from '@/test-support/dom.ts';
import { renderRoutes, testUser } from '@/test-support/render.tsx';
import { SignInDialogProvider } from '@/features/auth';
import { mediumScreenQuery } from '@/lib/use-media-query.ts';
import { setUpFakeContent } from '@/test-support/content.ts';
import { listOf } from '@/test-support/giphy-fixtures.ts';
import { SiteHeader } from './site-header.tsx';

// The categories panel is the real one, on a fake content client with one category.
const content = setUpFakeContent();
beforeEach(() => {
  content.gf.categories.mockResolvedValue(
    listOf([{ name: 'Reactions', name_encoded: 'reactions' }] as never),
  );
});

function renderHeader(session: typeof testUser | null, url = '/') {
  const layout = (
    <SignInDialogProvider>
      <SiteHeader />
      <main id="main-content" tabIndex={-1}>
        <p>page body</p>
      </main>
    </SignInDialogProvider>
  );
  return renderRoutes(
    [
      { path: '/', element: layout },
      { path: '/landing', element: <h1>Landing screen</h1> },
      { path: '*', element: layout },
    ],
    { url, session, content },
  );
}

async function openUserMenu() {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: /^Account menu for/ }));
  // The menu's code is downloaded on first use: the suite's wait covers a busy machine.
  const menu = await screen.findByRole('menu');
  return { user, menu };
}

describe('header, signed out', () => {
  it("shows the logo linking to / and a 'Get Started' button that opens the Sign In dialog", async () => {
    renderHeader(null);
    expect(screen.getByRole('link', { name: 'Sticky home' })).toHaveAttribute('href', '/');
    expect(screen.queryByRole('searchbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Favorite GIFs' })).not.toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Get Started' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign In' });
    expect(
      within(dialog).getByRole('button', { name: 'Continue with Google' }),
    ).toBeInTheDocument();
  });
});

describe('header, signed in, medium and large screens', () => {
  beforeEach(() => installDom([mediumScreenQuery]));

  it("shows Categories, 'Favorite GIFs', the avatar's initial and the search box", async () => {
    renderHeader(testUser);
    expect(await screen.findByRole('link', { name: 'Favorite GIFs' })).toHaveAttribute(
      'href',
      '/favorite',
    );
    expect(screen.getByRole('button', { name: 'Categories' })).toBeInTheDocument();
    const avatar = screen.getByRole('button', { name: 'Account menu for Ada Lovelace' });
    expect(avatar).toHaveTextContent(/^A$/);
    expect(await screen.findByRole('searchbox')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Get Started' })).not.toBeInTheDocument();
  });

  it('shows a person icon when the name starts with no letter', async () => {
    renderHeader({ ...testUser, name: '  ' });
    const avatar = await screen.findByRole('button', { name: /^Account menu for/ });
    expect(avatar).toHaveTextContent('');
    expect(within(avatar).getByTestId('avatar-icon')).toBeInTheDocument();
  });

  it("opens a menu with 'Home' and 'Logout' (Categories is in the header row here)", async () => {
    renderHeader(testUser, '/favorite');
    const { menu } = await openUserMenu();
    const items = within(menu)
      .getAllByRole('menuitem')
      .map((item) => item.textContent);
    expect(items).toEqual([
      'Home',
      'Upload',
      'My uploads',
      'Settings',
      'Logout',
      'Sign out everywhere',
    ]);
    expect(within(menu).getByRole('menuitem', { name: 'Home' })).toHaveAttribute('href', '/');
  });

  it('closes the menu on Escape', async () => {
    renderHeader(testUser);
    const { user } = await openUserMenu();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
  });

  it('closes the menu on an outside click', async () => {
    renderHeader(testUser);
    const { user } = await openUserMenu();
    await user.click(screen.getByText('page body'));
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
  });

  it('opens the categories panel, which closes when a category is chosen', async () => {
    const { router } = renderHeader(testUser);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Categories' }));
    const dialog = await screen.findByRole('dialog', { name: 'Categories' });
    await user.click(await within(dialog).findByRole('link', { name: 'Reactions' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(router.state.location.pathname).toBe('/reactions');
    await waitFor(() => expect(screen.getByRole('main')).toHaveFocus());
  });

  it('gives focus back to the Categories button when closed with Escape', async () => {
    renderHeader(testUser);
    const user = userEvent.setup();
    const button = await screen.findByRole('button', { name: 'Categories' });
    await user.click(button);
    await screen.findByRole('dialog', { name: 'Categories' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(button).toHaveFocus());
  });

  it('closes the categories panel on any navigation (Back included)', async () => {
    const { router } = renderHeader(testUser, '/favorite');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Categories' }));
    await screen.findByRole('dialog', { name: 'Categories' });
    await router.navigate('/');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});

describe('header, signed in, small screens', () => {
  beforeEach(() => installDom([]));

  it('names the icon-only Upload action and gives it a tooltip', async () => {
    renderHeader(testUser);
    const upload = await screen.findByRole('link', { name: 'Upload' });
    expect(upload).toHaveAttribute('href', '/upload');
    expect(upload).toHaveAttribute('title', 'Upload');
    expect(within(upload).getByText('Upload')).toHaveClass('max-sm:sr-only');
  });

  it("hides the Categories button and puts 'Categories' in the menu", async () => {
    renderHeader(testUser);
    expect(await screen.findByRole('button', { name: 'Categories', hidden: true })).toHaveClass(
      'max-md:hidden',
    );
    const { user, menu } = await openUserMenu();
    const items = within(menu)
      .getAllByRole('menuitem')
      .map((item) => item.textContent);
    expect(items).toEqual([
      'Home',
      'Upload',
      'My uploads',
      'Settings',
      'Categories',
      'Logout',
      'Sign out everywhere',
    ]);

    await user.click(within(menu).getByRole('menuitem', { name: 'Categories' }));
    const dialog = await screen.findByRole('dialog', { name: 'Categories' });
    expect(await within(dialog).findByRole('link', { name: 'Reactions' })).toBeVisible();
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });
});

describe('logout', () => {
  beforeEach(() => installDom([mediumScreenQuery]));

  it("posts /api/auth/logout, toasts 'Logged Out' and goes to /landing", async () => {
    const { calls } = stubApi({ 'POST /api/auth/logout': () => json({ success: true }) });
    const { router, queryClient } = renderHeader(testUser, '/favorite');
    const { user, menu } = await openUserMenu();
    await user.click(within(menu).getByRole('menuitem', { name: 'Logout' }));

    expect(await screen.findByText('Logged Out')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/landing'));
    expect(screen.getByRole('heading', { name: 'Landing screen' })).toBeInTheDocument();
    expect(queryClient.getQueryData(['auth', 'me'])).toBeNull();
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ method: 'POST', url: '/api/auth/logout', body: undefined });
    expect(calls[0]?.credentials).toBe('same-origin');
  });

  it('signs out everywhere: posts /api/auth/logout-all, toasts and goes to /landing', async () => {
    const { calls } = stubApi({ 'POST /api/auth/logout-all': () => json({ success: true }) });
    const { router, queryClient } = renderHeader(testUser, '/favorite');
    const { user, menu } = await openUserMenu();
    await user.click(within(menu).getByRole('menuitem', { name: 'Sign out everywhere' }));

    expect(await screen.findByText('Signed out everywhere')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/landing'));
    expect(queryClient.getQueryData(['auth', 'me'])).toBeNull();
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ method: 'POST', url: '/api/auth/logout-all' });
  });

  it.each([
    ['the server says it failed', () => json({ success: false })],
    [
      'the server errors',
      () => json({ success: false, error: { code: 'internal', message: 'x' } }, 500),
    ],
    [
      'the network fails',
      () => {
        throw new TypeError('Failed to fetch');
      },
    ],
  ])("toasts 'Something went wrong' and stays signed in when %s", async (_label, reply) => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    stubApi({ 'POST /api/auth/logout': reply });
    const { router, queryClient } = renderHeader(testUser, '/favorite');
    const { user, menu } = await openUserMenu();
    await user.click(within(menu).getByRole('menuitem', { name: 'Logout' }));

    expect(await screen.findByText('Something went wrong')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/favorite');
    expect(queryClient.getQueryData(['auth', 'me'])).toEqual(testUser);
    expect(screen.queryByText('Logged Out')).not.toBeInTheDocument();
  });
});
