import { GiphyFetch, setServerUrl } from '@giphy/js-fetch-api';
import type { ClientConfig } from '@sticky/contracts';
import { fetchClientConfig } from '@/lib/client-config-api.ts';

export interface ContentClient {
  config: ClientConfig;
  gf: GiphyFetch;
  /** A client whose every request also carries `extra` (GIPHY's documented `qsParams`). */
  withParams: (extra: Record<string, string>) => GiphyFetch;
}

/**
 * Points GIPHY's client at the configured source: our own GIPHY-compatible `/v1` (same
 * origin, the session cookie authorises it) or GIPHY itself, whose key is public by design.
 * The URL must end in `/v1/` for the SDK's version rewrite.
 */
export function createContentClient(config: ClientConfig, origin: string): ContentClient {
  const base = config.source === 'giphy' ? config.apiUrl : `${origin}/v1`;
  setServerUrl(`${base.replace(/\/+$/, '')}/`);
  return {
    config,
    gf: new GiphyFetch(config.apiKey),
    withParams: (extra) => new GiphyFetch(config.apiKey, extra),
  };
}

let pending: Promise<ContentClient> | null = null;

/** The one content client of this page, configured from `GET /api/config` on first use. */
export function getContentClient(): Promise<ContentClient> {
  if (!pending) {
    pending = fetchClientConfig()
      .then((config) => createContentClient(config, window.location.origin))
      .catch((error: unknown) => {
        // A failed start must not stick: the next call (a Retry) asks again.
        pending = null;
        throw error;
      });
  }
  return pending;
}
