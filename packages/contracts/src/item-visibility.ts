/**
 * The visibilities an item may have (`itemVisibilitySchema`), in a module of its own so the
 * zod-free checkers of first-screen.ts read the same list without importing the schemas.
 */
export const itemVisibilities = ['public', 'unlisted', 'private'] as const;
