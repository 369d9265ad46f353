import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { buttonStyles } from '@/components/button-styles.ts';
import { Logo } from '@/components/logo.tsx';
import { useAuth, useSignInDialog } from '@/features/auth';
import { getLoadedSignedInChrome, loadSignedInChrome } from './load-signed-in-chrome.ts';

const SignedInNav = lazy(() =>
  loadSignedInChrome().then((module) => ({ default: module.SignedInNav })),
);
const SearchBox = lazy(() =>
  loadSignedInChrome().then((module) => ({ default: module.SearchBox })),
);

function GetStartedButton() {
  const { openSignIn, preloadSignIn } = useSignInDialog();
  return (
    <button
      type="button"
      className={buttonStyles.primary}
      onClick={openSignIn}
      onPointerEnter={preloadSignIn}
      onFocus={preloadSignIn}
      aria-haspopup="dialog"
    >
      Get Started
    </button>
  );
}

/**
 * The header: logo; signed in: categories, favourites, user menu and the search box
 * (docs/web.md, "Screens and routes").
 */
export function SiteHeader() {
  const { user, isLoading } = useAuth();
  const chrome = getLoadedSignedInChrome();
  return (
    <header className="border-b border-white/10 bg-gray-950/95 backdrop-blur md:sticky md:top-0 md:z-30">
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-3 px-4">
        <Link to="/" aria-label="Sticky home" className="rounded-lg">
          <Logo />
        </Link>
        <div className="ml-auto flex items-center gap-1 sm:gap-2">
          {isLoading ? null : user && chrome ? (
            <chrome.SignedInNav user={user} />
          ) : user ? (
            <Suspense fallback={<span className="size-10 rounded-full bg-white/10" />}>
              <SignedInNav user={user} />
            </Suspense>
          ) : (
            <GetStartedButton />
          )}
        </div>
      </div>
      {user && (
        <div className="mx-auto max-w-7xl px-4 pb-3">
          {chrome ? (
            <chrome.SearchBox />
          ) : (
            <Suspense fallback={<div className="h-12 rounded-full bg-white/5" />}>
              <SearchBox />
            </Suspense>
          )}
        </div>
      )}
    </header>
  );
}
