import type { QueryClient } from '@tanstack/react-query';

/**
 * Logging out clears the user and then navigates to /landing. The router shows the old
 * screen until /landing's code is there, and its guard would redirect a second time (with
 * a `from` that would send the next sign-in back to the previous user's page). This marks
 * that the app is already on its way out; /landing's guard ends it.
 *
 * The mark is state of the app, kept in its query cache rather than in this module
 * (docs/web.md, "State"). It is set before the user is cleared, so the guard that renders
 * because the user is gone reads it then.
 */
const signOutNavigationKey = ['auth', 'sign-out-navigation'] as const;

export function startSignOutNavigation(queryClient: QueryClient) {
  queryClient.setQueryData(signOutNavigationKey, true);
}

export function endSignOutNavigation(queryClient: QueryClient) {
  queryClient.removeQueries({ queryKey: signOutNavigationKey, exact: true });
}

export function getIsSignOutNavigating(queryClient: QueryClient): boolean {
  return queryClient.getQueryData<boolean>(signOutNavigationKey) === true;
}
