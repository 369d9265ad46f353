import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderRoutes } from '@/test-support/render.tsx';
import { navigateAway } from '@/lib/navigate-away.ts';
import { SignInDialogProvider, useSignInDialog } from './sign-in-dialog-context.tsx';

vi.mock('@/lib/navigate-away.ts', () => ({ navigateAway: vi.fn() }));

function Opener() {
  const { openSignIn } = useSignInDialog();
  return (
    <button type="button" onClick={openSignIn}>
      Open sign-in
    </button>
  );
}

function renderDialog(state?: unknown, url = '/landing') {
  return renderRoutes(
    [
      {
        path: url,
        element: (
          <SignInDialogProvider>
            <Opener />
          </SignInDialogProvider>
        ),
      },
    ],
    { url, session: null, state },
  );
}

async function openDialog() {
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: 'Open sign-in' }));
  const dialog = await screen.findByRole('dialog', { name: 'Sign In' });
  return { user, dialog };
}

beforeEach(() => {
  vi.mocked(navigateAway).mockClear();
});

describe('Sign In dialog', () => {
  it("is titled 'Sign In' and offers 'Continue with Google' and a close button", async () => {
    renderDialog();
    const { dialog } = await openDialog();
    expect(dialog).toHaveTextContent('Sign In');
    const google = screen.getByRole('button', { name: 'Continue with Google' });
    expect(google).not.toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('button', { name: 'Close' })).toBeInTheDocument();
  });

  it('goes to /api/auth/googleAuth in the same window and shows a spinner while pending', async () => {
    renderDialog();
    const { user } = await openDialog();
    const google = screen.getByRole('button', { name: 'Continue with Google' });
    expect(google.querySelector('[data-testid="spinner"]')).toBeNull();

    await user.click(google);
    expect(navigateAway).toHaveBeenCalledWith('/api/auth/googleAuth');
    expect(google).toHaveAttribute('aria-busy', 'true');
    expect(google).toHaveAttribute('aria-disabled', 'true');
    expect(google.querySelector('[data-testid="spinner"]')).not.toBeNull();
    expect(screen.getByRole('status')).toHaveTextContent('Taking you to sign in…');

    // A second click while pending does not start a second sign-in.
    await user.click(google);
    expect(navigateAway).toHaveBeenCalledTimes(1);
  });

  it('leaves the pending state when the page comes back from the back/forward cache', async () => {
    renderDialog();
    const { user } = await openDialog();
    const google = screen.getByRole('button', { name: 'Continue with Google' });
    await user.click(google);
    expect(google).toHaveAttribute('aria-busy', 'true');
    act(() => {
      window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
    });
    expect(google).toHaveAttribute('aria-busy', 'false');
  });

  it('brings the visitor back to where the guard sent them from', async () => {
    renderDialog({ from: '/search/cats' });
    const { user } = await openDialog();
    await user.click(screen.getByRole('button', { name: 'Continue with Google' }));
    expect(navigateAway).toHaveBeenCalledWith('/api/auth/googleAuth?returnTo=%2Fsearch%2Fcats');
  });

  it('brings the visitor back to the shared item page it was opened on', async () => {
    renderDialog(undefined, '/gif/wide-abc123');
    const { user } = await openDialog();
    await user.click(screen.getByRole('button', { name: 'Continue with Google' }));
    expect(navigateAway).toHaveBeenCalledWith('/api/auth/googleAuth?returnTo=%2Fgif%2Fwide-abc123');
  });

  it('closes with the close button and gives focus back to what opened it', async () => {
    renderDialog();
    const { user } = await openDialog();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Open sign-in' })).toHaveFocus();
    expect(navigateAway).not.toHaveBeenCalled();
  });

  it('closes on Escape', async () => {
    renderDialog();
    const { user } = await openDialog();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
