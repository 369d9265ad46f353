/**
 * An item id as GIPHY and our catalog make them (base62, sometimes with `-`/`_`): the shape
 * `favoriteIdSchema` checks, in a module of its own so the zod-free checkers of first-screen.ts
 * use the same one without importing the schemas.
 */
export const favoriteIdPattern = /^[A-Za-z0-9_-]{1,64}$/;
