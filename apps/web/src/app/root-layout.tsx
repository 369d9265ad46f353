import { useEffect, useRef, useSyncExternalStore } from 'react';
import type { MouseEvent } from 'react';
import { Outlet, useLocation } from 'react-router';
import { mainContentId } from '@/components/landmarks.ts';
import { SignInDialogProvider } from '@/features/auth';
import { SiteFooter, SiteHeader } from '@/features/navigation';
import { getIsPageLoading, subscribePageLoads } from './lazy-page.ts';
import { ScrollRestoration } from './scroll-restoration.tsx';

/**
 * True while a screen's code downloads. The router keeps showing the current screen
 * meanwhile (its updates are transitions), so this is what says something is coming.
 */
function useIsPageLoading() {
  return useSyncExternalStore(subscribePageLoads, getIsPageLoading, getIsPageLoading);
}

function NavigationProgress({ isLoading }: { isLoading: boolean }) {
  if (!isLoading) return null;
  return (
    <div
      className="fixed inset-x-0 top-0 z-50 h-1 overflow-hidden bg-violet-500/20"
      aria-hidden="true"
      data-testid="navigation-progress"
    >
      <div className="h-full w-2/5 bg-gradient-to-r from-violet-400 to-pink-400 motion-safe:animate-progress" />
    </div>
  );
}

/**
 * One layout for every route: header, the routed screen, footer (docs/web.md, "Screens and
 * routes").
 */
export function RootLayout() {
  const mainRef = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  const isPageLoading = useIsPageLoading();
  const previousPathname = useRef(pathname);

  useEffect(() => {
    // A new screen: move focus to it, so keyboard and screen-reader users start there
    // instead of on a link that no longer exists.
    if (previousPathname.current === pathname) return;
    previousPathname.current = pathname;
    mainRef.current?.focus({ preventScroll: true });
  }, [pathname]);

  const skipToContent = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    mainRef.current?.focus();
  };

  return (
    <SignInDialogProvider>
      <a
        href={`#${mainContentId}`}
        onClick={skipToContent}
        className="sr-only rounded-lg bg-violet-600 px-4 py-2 font-semibold text-white focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-50"
      >
        Skip to content
      </a>
      <NavigationProgress isLoading={isPageLoading} />
      <SiteHeader />
      <main
        ref={mainRef}
        id={mainContentId}
        tabIndex={-1}
        aria-busy={isPageLoading}
        // At least a screen tall: the footer starts below the fold, so it does not jump down
        // (layout shift) as the screen fills in.
        className="min-h-dvh w-full flex-1 focus:outline-none"
      >
        <div className="mx-auto w-full max-w-7xl px-4 py-6">
          <Outlet />
        </div>
      </main>
      <SiteFooter />
      <ScrollRestoration />
    </SignInDialogProvider>
  );
}
