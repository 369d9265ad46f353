import { Navigate, Outlet, useLocation, useNavigation } from 'react-router';
import { PageLoader } from '@/components/spinner.tsx';
import { useAuth } from './use-auth.ts';

/** Where a signed-out visitor was going, so sign-in can bring them back there. */
export interface LandingState {
  from?: string;
}

/** Spec §2: signed-in pages wait for the session check, and send visitors to /landing. */
export function RequireUser() {
  const { user, isLoading } = useAuth();
  const location = useLocation();
  const navigation = useNavigation();
  if (isLoading) return <PageLoader label="Checking your session…" />;
  if (!user) {
    // Logging out already navigates to /landing; a second redirect would only add history.
    if (navigation.location?.pathname === '/landing') return <PageLoader />;
    const state: LandingState = { from: `${location.pathname}${location.search}` };
    return <Navigate to="/landing" replace state={state} />;
  }
  return <Outlet />;
}

/** Spec §2: /landing waits for the session check and sends signed-in users to /. */
export function RequireGuest() {
  const { user, isLoading } = useAuth();
  if (isLoading) return <PageLoader label="Checking your session…" />;
  if (user) return <Navigate to="/" replace />;
  return <Outlet />;
}
