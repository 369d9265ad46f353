const MAX_RETURN_TO_LENGTH = 2000;
/** Only used to resolve a relative path; never a real host. */
const PROBE_ORIGIN = 'http://return-to.invalid';

/**
 * A path on this site to land on after sign-in, or null when the value could send the
 * browser elsewhere. Browsers treat `//host`, `/\host` and paths with tabs or newlines
 * (which they strip) as other sites, so those are refused, not repaired.
 */
export function parseReturnTo(value: string): string | null {
  if (value.length === 0 || value.length > MAX_RETURN_TO_LENGTH) return null;
  if (!value.startsWith('/') || value.startsWith('//')) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, PROBE_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== PROBE_ORIGIN) return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // Dot segments can turn "/.//host" into "//host", which browsers read as another site.
  if (path.startsWith('//')) return null;
  return path;
}
