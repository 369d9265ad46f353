import { signInErrorMessages } from '@sticky/contracts';
import type { ClientConfig } from '@sticky/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, stubApi } from '@/test-support/api.ts';
import { renderRoutes } from '@/test-support/render.tsx';
import { SignInDialogProvider } from '@/features/auth';
import { LandingPage } from './landing-page.tsx';

function renderLanding(url = '/landing', config?: ClientConfig) {
  return renderRoutes(
    [
      {
        path: '/landing',
        element: (
          <SignInDialogProvider>
            <LandingPage />
          </SignInDialogProvider>
        ),
      },
    ],
    { url, session: null, config },
  );
}

function stubLandingApi(analyticsScriptUrl: string | null = null) {
  return stubApi({
    'POST /api/analytics/pageview': () => new Response(null, { status: 204 }),
    'GET /api/config': () => json({ source: 'local', apiKey: 'sticky-web', analyticsScriptUrl }),
  });
}

afterEach(() => {
  document.head.querySelectorAll('script[data-sticky-analytics]').forEach((node) => node.remove());
});

describe('landing page', () => {
  it('shows the hero headline, its subtext and the call to action', () => {
    stubLandingApi();
    renderLanding();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Say it with a GIF.');
    expect(screen.getByText(/Sticky finds the perfect reaction in seconds\./)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Get started for free' })).toBeInTheDocument();
  });

  it('shows the four feature sections, each with an animated image', () => {
    stubLandingApi();
    renderLanding();
    const titles = screen.getAllByRole('heading', { level: 3 }).map((node) => node.textContent);
    expect(titles).toEqual([
      'Search trending GIFs',
      'Save your favorites',
      'Share with friends',
      'Download GIFs',
    ]);
    const images = screen
      .getAllByRole('img')
      .filter((image) => image.getAttribute('src')?.startsWith('/landing/'));
    expect(images.map((image) => image.getAttribute('src'))).toEqual([
      '/landing/search.svg',
      '/landing/favorites.svg',
      '/landing/share.svg',
      '/landing/download.svg',
    ]);
    for (const image of images) expect(image.getAttribute('alt')).toMatch(/^Animation: /);
  });

  it("opens the Sign In dialog from 'Get started for free'", async () => {
    stubLandingApi();
    renderLanding();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Get started for free' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign In' });
    expect(
      within(dialog).getByRole('button', { name: 'Continue with Google' }),
    ).toBeInTheDocument();
  });

  it('explains a failed sign-in from ?error= in an alert, which can be dismissed', async () => {
    stubLandingApi();
    const { router } = renderLanding('/landing?error=not_allowed');
    // The alert's code downloads only when there is an error to explain.
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent("We couldn't sign you in");
    expect(alert).toHaveTextContent(signInErrorMessages.not_allowed);

    await userEvent.setup().click(within(alert).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(router.state.location.search).toBe('');
  });

  it.each(['flow_expired', 'state_mismatch', 'email_unverified'] as const)(
    'has a message for %s',
    async (code) => {
      stubLandingApi();
      renderLanding(`/landing?error=${code}`);
      expect(await screen.findByRole('alert')).toHaveTextContent(signInErrorMessages[code]);
    },
  );

  it('shows no alert for an unknown code or none', async () => {
    stubLandingApi();
    const { router } = renderLanding('/landing?error=not_allowed');
    // The alert's code is there and mounted: what it shows now is its own decision.
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    await router.navigate('/landing?error=%3Cscript%3E');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await router.navigate('/landing?error=');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await router.navigate('/landing?error=not_allowed');
    expect(screen.getByRole('alert')).toHaveTextContent(signInErrorMessages.not_allowed);
  });

  it('counts one page view, without cookies and without anything about the visitor', async () => {
    const { calls } = stubLandingApi();
    renderLanding('/landing?error=not_allowed');
    await waitFor(() =>
      expect(calls.filter((call) => call.url === '/api/analytics/pageview')).toHaveLength(1),
    );
    const view = calls.find((call) => call.url === '/api/analytics/pageview')!;
    expect(view.method).toBe('POST');
    expect(view.body).toEqual({ path: '/landing' });
    expect(view.credentials).toBe('omit');
  });

  it('loads the configured analytics script once', async () => {
    stubLandingApi('https://stats.example.com/script.js');
    renderLanding();
    await waitFor(() =>
      expect(document.head.querySelectorAll('script[data-sticky-analytics]')).toHaveLength(1),
    );
    const script = document.head.querySelector<HTMLScriptElement>('script[data-sticky-analytics]');
    expect(script?.src).toBe('https://stats.example.com/script.js');
    expect(script?.defer).toBe(true);
  });

  it.each([
    ['no analytics script when none is configured', null, 0],
    ['the configured one', 'https://stats.example.com/script.js', 1],
  ])('loads %s, as soon as the config is known', (_label, analyticsScriptUrl, count) => {
    stubLandingApi(analyticsScriptUrl);
    renderLanding('/landing', { source: 'local', apiKey: 'sticky-web', analyticsScriptUrl });
    // The config was in the cache at the first render, whose effects have run by now.
    expect(document.head.querySelectorAll('script[data-sticky-analytics]')).toHaveLength(count);
  });

  it('keeps working when counting the view fails', async () => {
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {});
    stubApi({
      'POST /api/analytics/pageview': () =>
        json({ success: false, error: { code: 'rate_limited', message: 'Slow down.' } }, 429),
      'GET /api/config': () => json({ source: 'local', apiKey: 'k', analyticsScriptUrl: null }),
    });
    renderLanding();
    await waitFor(() => expect(debug).toHaveBeenCalled());
    expect(screen.getByRole('button', { name: 'Get started for free' })).toBeInTheDocument();
  });
});
