import { createContext, lazy, Suspense, useCallback, useContext, useMemo, useState } from 'react';
import type { ReactNode } from 'react';

const loadSignInDialog = () => import('./sign-in-dialog.tsx');
const SignInDialog = lazy(() =>
  loadSignInDialog().then((module) => ({ default: module.SignInDialog })),
);

interface SignInDialogControls {
  openSignIn: () => void;
  /** Starts downloading the dialog (on hover or focus of a button that opens it). */
  preloadSignIn: () => void;
}

const SignInDialogContext = createContext<SignInDialogControls | null>(null);

/**
 * Owns the one Sign In dialog, opened from 'Get Started' and 'Get started for free'
 * (docs/web.md, "Screens and routes").
 * The dialog and Radix are downloaded on first use: signed-in pages never need them.
 */
export function SignInDialogProvider({ children }: { children: ReactNode }) {
  const [isOpen, setIsOpen] = useState(false);
  const [hasOpened, setHasOpened] = useState(false);
  const [returnFocusTo, setReturnFocusTo] = useState<HTMLElement | null>(null);

  const openSignIn = useCallback(() => {
    const active = document.activeElement;
    setReturnFocusTo(active instanceof HTMLElement ? active : null);
    setHasOpened(true);
    setIsOpen(true);
  }, []);
  const preloadSignIn = useCallback(() => {
    void loadSignInDialog();
  }, []);
  const controls = useMemo(() => ({ openSignIn, preloadSignIn }), [openSignIn, preloadSignIn]);

  return (
    <SignInDialogContext.Provider value={controls}>
      {children}
      {hasOpened && (
        <Suspense fallback={null}>
          <SignInDialog open={isOpen} onOpenChange={setIsOpen} returnFocusTo={returnFocusTo} />
        </Suspense>
      )}
    </SignInDialogContext.Provider>
  );
}

export function useSignInDialog(): SignInDialogControls {
  const controls = useContext(SignInDialogContext);
  if (!controls) throw new Error('useSignInDialog needs a SignInDialogProvider above it');
  return controls;
}
