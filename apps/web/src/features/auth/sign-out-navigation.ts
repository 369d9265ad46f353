/**
 * Logging out clears the user and then navigates to /landing. The router shows the old
 * screen until /landing's code is there, and its guard would redirect a second time (with
 * a `from` that would send the next sign-in back to the previous user's page). This marks
 * that the app is already on its way out. Ended by /landing's guard.
 */
let isLeaving = false;

export function startSignOutNavigation() {
  isLeaving = true;
}

export function endSignOutNavigation() {
  isLeaving = false;
}

export function getIsSignOutNavigating() {
  return isLeaving;
}
