import { isApiClientError } from './api-client.ts';

/**
 * Did our server answer 401, i.e. the session has ended (expired, deleted, logged out in
 * another tab)? Either client may carry it: ours for `/api`, and GIPHY's for our `/v1`, whose
 * FetchError has the `status` and the full `url` it asked (read by shape: importing the class
 * would load the SDK on every screen). A 401 from GIPHY itself (giphy mode, a bad key) says
 * nothing about our session. docs/web.md, "State".
 */
export function isUnauthorizedError(error: unknown): boolean {
  if (!(error instanceof Error) || (error as { status?: unknown }).status !== 401) return false;
  const url = (error as { url?: unknown }).url;
  return (
    isApiClientError(error) ||
    (typeof url === 'string' && url.startsWith(`${window.location.origin}/v1/`))
  );
}
