/**
 * Where "Continue with Google" goes: the server's sign-in start, with a same-site path to come
 * back to. Anything that is not a plain local path is dropped (the server checks again).
 */
export function buildSignInUrl(returnTo?: string | null): string {
  const base = '/api/auth/googleAuth';
  const isLocalPath =
    typeof returnTo === 'string' &&
    returnTo.startsWith('/') &&
    !returnTo.startsWith('//') &&
    !returnTo.startsWith('/\\') &&
    !returnTo.startsWith('/landing') &&
    returnTo !== '/';
  return isLocalPath ? `${base}?returnTo=${encodeURIComponent(returnTo)}` : base;
}
