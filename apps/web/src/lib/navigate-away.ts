/**
 * A full-page navigation in the same window (sign-in leaves the SPA). One module so
 * tests can observe it: jsdom cannot navigate.
 */
export function navigateAway(url: string) {
  window.location.assign(url);
}
