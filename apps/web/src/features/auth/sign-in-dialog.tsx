import * as Dialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { buttonStyles } from '@/components/button-styles.ts';
import { Logo } from '@/components/logo.tsx';
import { Spinner } from '@/components/spinner.tsx';
import { navigateAway } from '@/lib/navigate-away.ts';
import type { LandingState } from './guards.tsx';
import { GoogleIcon } from './google-icon.tsx';
import { buildSignInUrl } from './sign-in-url.ts';

interface SignInDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The button that opened the dialog: focus goes back to it on close. */
  returnFocusTo: HTMLElement | null;
}

/**
 * 'Sign In', 'Continue with Google' (pending once clicked) and a close button
 * (docs/web.md, "The spec's rules the web keeps").
 */
export function SignInDialog({ open, onOpenChange, returnFocusTo }: SignInDialogProps) {
  const [isPending, setIsPending] = useState(false);
  const location = useLocation();
  // Where the guard was sending them from, else the page it was opened on (a shared item).
  const returnTo =
    (location.state as LandingState | null)?.from ?? `${location.pathname}${location.search}`;

  useEffect(() => {
    // Coming back with the browser's Back button restores this page from the back/forward
    // cache with the spinner still running; the sign-in it was waiting for is gone.
    const resetOnRestore = (event: PageTransitionEvent) => {
      if (event.persisted) setIsPending(false);
    };
    window.addEventListener('pageshow', resetOnRestore);
    return () => window.removeEventListener('pageshow', resetOnRestore);
  }, []);

  const continueWithGoogle = () => {
    if (isPending) return;
    setIsPending(true);
    navigateAway(buildSignInUrl(returnTo));
  };

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/70 backdrop-blur-sm motion-safe:animate-fade-in" />
        <Dialog.Content
          className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-sm -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-white/10 bg-gray-900 p-6 text-center shadow-2xl motion-safe:animate-pop-in"
          onCloseAutoFocus={(event) => {
            if (returnFocusTo?.isConnected) {
              event.preventDefault();
              returnFocusTo.focus();
            }
          }}
        >
          <Logo className="justify-center" />
          <Dialog.Title className="mt-4 text-2xl font-bold text-white">Sign In</Dialog.Title>
          <Dialog.Description className="mt-2 text-sm text-gray-300">
            Sign in to search, save and share GIFs, stickers and animated text.
          </Dialog.Description>
          <button
            type="button"
            onClick={continueWithGoogle}
            aria-disabled={isPending}
            aria-busy={isPending}
            className="mt-6 inline-flex w-full items-center justify-center gap-3 rounded-full bg-white px-5 py-3 font-semibold text-gray-900 transition-colors hover:bg-gray-100 aria-disabled:cursor-progress aria-disabled:opacity-80"
          >
            {isPending ? <Spinner className="size-5 text-violet-600" /> : <GoogleIcon />}
            Continue with Google
          </button>
          <p role="status" className="sr-only">
            {isPending ? 'Taking you to sign in…' : ''}
          </p>
          <Dialog.Close
            className={`${buttonStyles.icon} absolute top-3 right-3`}
            aria-label="Close"
          >
            <X className="size-5" aria-hidden="true" />
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
