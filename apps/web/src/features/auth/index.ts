export { useAuth } from './use-auth.ts';
export type { AuthState } from './use-auth.ts';
export { useLogout } from './use-logout.ts';
export { meQueryKey, meQueryOptions, takeCarriedSession } from './me-api.ts';
export { RedirectToLanding, RequireGuest, RequireUser } from './guards.tsx';
export type { LandingState } from './guards.tsx';
export { SignInDialogProvider, useSignInDialog } from './sign-in-dialog-context.tsx';
