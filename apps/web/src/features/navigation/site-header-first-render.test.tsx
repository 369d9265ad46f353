import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SignInDialogProvider } from '@/features/auth';
import { setUpFakeContent } from '@/test-support/content.ts';
import { renderRoutes, testUser } from '@/test-support/render.tsx';
import { loadSignedInChrome } from './load-signed-in-chrome.ts';
import { SiteHeader } from './site-header.tsx';

// A file of its own: a header rendered earlier in the same module graph would have resolved
// its lazy components already, which is what this test must not start from.
const content = setUpFakeContent();

describe('header, signed in, its code already here', () => {
  it('draws the menu and the search box in its first render, with no placeholder before them', async () => {
    await loadSignedInChrome();
    renderRoutes(
      [
        {
          path: '/',
          element: (
            <SignInDialogProvider>
              <SiteHeader />
            </SignInDialogProvider>
          ),
        },
      ],
      { url: '/', session: testUser, content },
    );
    expect(screen.getByRole('button', { name: /^Account menu for/ })).toBeInTheDocument();
    expect(screen.getByRole('searchbox')).toBeInTheDocument();
  });
});
