const marker = 'data-sticky-analytics';

/**
 * Adds the operator's web-analytics script (ANALYTICS_SCRIPT_URL) once. The
 * Content-Security-Policy allows exactly that script's origin; nothing is inlined. With an
 * integrity hash (ANALYTICS_SCRIPT_INTEGRITY) the browser runs it only if it is that very file.
 */
export function loadAnalyticsScript(url: string, integrity?: string | null): void {
  if (document.querySelector(`script[${marker}]`)) return;
  let source: URL;
  try {
    source = new URL(url, window.location.origin);
  } catch {
    return;
  }
  // The server validated it as an http(s) URL; never run javascript: or data: as a script.
  if (source.protocol !== 'https:' && source.protocol !== 'http:') return;
  const script = document.createElement('script');
  script.src = source.href;
  script.defer = true;
  if (integrity) {
    script.setAttribute('integrity', integrity);
    // Integrity checks need a CORS fetch; no credentials go with it.
    script.setAttribute('crossorigin', 'anonymous');
  }
  script.setAttribute(marker, '');
  document.head.append(script);
}
