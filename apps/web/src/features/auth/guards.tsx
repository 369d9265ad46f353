import { useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useEffect } from 'react';
import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { PageLoader } from '@/components/spinner.tsx';
import { endSignOutNavigation, getIsSignOutNavigating } from './sign-out-navigation.ts';
import { useAuth } from './use-auth.ts';

/** Where a signed-out visitor was going, so sign-in can bring them back there. */
export interface LandingState {
  from?: string;
}

/**
 * The session check's end, deferred: the screen behind a guard renders in the background and
 * the loader stays until that screen's code has downloaded (instead of a blank fallback).
 */
function useIsCheckingSession(isLoading: boolean) {
  return useDeferredValue(isLoading);
}

/** Sends a visitor to /landing, remembering where they were going for after sign-in. */
export function RedirectToLanding() {
  const location = useLocation();
  const state: LandingState = { from: `${location.pathname}${location.search}` };
  return <Navigate to="/landing" replace state={state} />;
}

/**
 * Signed-in pages wait for the session check, and send visitors to /landing
 * (docs/web.md, "Screens and routes"), or show them `guest` (which may send them there itself).
 */
export function RequireUser({ guest }: { guest?: ReactNode }) {
  const { user, isLoading } = useAuth();
  const isChecking = useIsCheckingSession(isLoading);
  const queryClient = useQueryClient();
  if (isChecking) return <PageLoader label="Checking your session…" />;
  if (!user) {
    // Logging out already navigates to /landing; a second redirect would only add history.
    if (getIsSignOutNavigating(queryClient)) return <PageLoader />;
    return guest ?? <RedirectToLanding />;
  }
  return <Outlet />;
}

/**
 * /landing waits for the session check and sends signed-in users to / (docs/web.md, "Screens and
 * routes").
 */
export function RequireGuest() {
  const { user, isLoading } = useAuth();
  const isChecking = useIsCheckingSession(isLoading);
  const queryClient = useQueryClient();
  useEffect(() => {
    endSignOutNavigation(queryClient);
  }, [queryClient]);
  if (isChecking) return <PageLoader label="Checking your session…" />;
  if (user) return <Navigate to="/" replace />;
  return <Outlet />;
}
