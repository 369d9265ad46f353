import { Sparkles } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { buttonStyles } from '@/components/button-styles.ts';
import { useSignInDialog } from '@/features/auth';
import type { LandingState } from '@/features/auth';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { landingFeatures } from './landing-features.ts';
import { useLandingAnalytics } from './use-landing-analytics.ts';

// Only a failed sign-in needs it, and it brings the contract's messages (and zod) with it.
const SignInErrorAlert = lazy(() =>
  import('./sign-in-error-alert.tsx').then((module) => ({ default: module.SignInErrorAlert })),
);

/** A shared link's page (an item, or an upload's `/u/{id}`): what a visitor was sent here from. */
const sharedLinkPattern = /^\/(?:gif|sticker|text|u)\/[^/?#]+(?:[?#].*)?$/;

/**
 * The marketing and sign-in page for visitors who are not signed in (docs/web.md, "Screens and
 * routes").
 */
export function LandingPage() {
  useDocumentTitle('Find, save and share GIFs');
  useLandingAnalytics();
  const { openSignIn, preloadSignIn } = useSignInDialog();
  const [searchParams] = useSearchParams();
  const from = (useLocation().state as LandingState | null)?.from;
  const isGifWaiting = typeof from === 'string' && sharedLinkPattern.test(from);

  return (
    <div>
      {searchParams.has('error') && (
        <Suspense fallback={null}>
          <SignInErrorAlert />
        </Suspense>
      )}
      <section
        aria-labelledby="landing-title"
        className="mx-auto grid max-w-6xl items-center gap-10 py-6 md:grid-cols-2 md:py-14"
      >
        <div>
          {isGifWaiting && (
            <p className="mb-5 rounded-xl border border-violet-400/40 bg-violet-500/15 px-4 py-3 font-semibold text-violet-100">
              A GIF is waiting for you after sign-in.
            </p>
          )}
          <p className="inline-flex items-center gap-2 rounded-full bg-violet-500/15 px-3 py-1 text-sm font-medium text-violet-200">
            <Sparkles className="size-4" aria-hidden="true" />
            GIFs, stickers and animated text
          </p>
          <h1
            id="landing-title"
            className="mt-5 text-4xl font-extrabold tracking-tight text-balance text-white sm:text-5xl lg:text-6xl"
          >
            Say it with a{' '}
            <span className="bg-gradient-to-r from-violet-300 via-pink-300 to-amber-200 bg-clip-text text-transparent">
              GIF
            </span>
            .
          </h1>
          <p className="mt-5 max-w-xl text-lg text-pretty text-gray-300">
            Sticky finds the perfect reaction in seconds. Search trending GIFs, stickers and
            animated text, keep your favorites close, and share them anywhere.
          </p>
          <button
            type="button"
            className={`${buttonStyles.primary} mt-8 px-7 py-3.5 text-lg`}
            onClick={openSignIn}
            onPointerEnter={preloadSignIn}
            onFocus={preloadSignIn}
            aria-haspopup="dialog"
          >
            Get started for free
          </button>
        </div>
        <img
          src="/landing/hero.svg"
          alt=""
          width={480}
          height={400}
          className="mx-auto w-full max-w-md"
        />
      </section>

      <section aria-labelledby="features-title" className="mx-auto max-w-6xl pb-8">
        <h2 id="features-title" className="sr-only">
          What you can do with Sticky
        </h2>
        <ul className="space-y-16 md:space-y-24">
          {landingFeatures.map((feature, index) => (
            <li key={feature.id} className="grid items-center gap-8 md:grid-cols-2 md:gap-14">
              <div className={index % 2 === 1 ? 'md:order-2' : undefined}>
                <h3 id={`feature-${feature.id}`} className="text-3xl font-bold text-white">
                  {feature.title}
                </h3>
                <p className="mt-3 max-w-md text-lg text-gray-300">{feature.text}</p>
              </div>
              <img
                src={feature.image}
                alt={feature.alt}
                width={480}
                height={360}
                loading="lazy"
                decoding="async"
                className="w-full rounded-3xl border border-white/10 bg-gray-900 shadow-xl"
              />
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
