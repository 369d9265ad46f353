/** The id of the layout's <main>: the skip link's target, and where focus goes on navigation. */
export const mainContentId = 'main-content';

export function focusMainContent() {
  document.getElementById(mainContentId)?.focus({ preventScroll: true });
}
