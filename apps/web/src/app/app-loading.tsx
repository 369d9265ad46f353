import { mainContentId } from '@/components/landmarks.ts';
import { Logo } from '@/components/logo.tsx';
import { PageLoader } from '@/components/spinner.tsx';

/** Shown while the first screen's code downloads (the routes' outermost Suspense fallback). */
export function AppLoading() {
  return (
    <>
      <header className="border-b border-white/10 bg-gray-950/95">
        <div className="mx-auto flex h-16 max-w-7xl items-center px-4">
          <Logo />
        </div>
      </header>
      <main id={mainContentId} className="min-h-dvh flex-1">
        <PageLoader />
      </main>
    </>
  );
}
