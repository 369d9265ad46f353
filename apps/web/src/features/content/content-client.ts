import { GiphyFetch, setServerUrl } from '@giphy/js-fetch-api';
import type { ClientConfig } from '@sticky/contracts';
import { queryOptions } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { clientConfigQueryKey, clientConfigQueryOptions } from '@/lib/client-config-api.ts';

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

/**
 * The page's one content client, kept in the app's query cache beside the config it is made
 * from (under the config's key, so invalidating the config drops it too). A failed start is
 * not kept: the next request (a Retry) asks for the config again. docs/web.md, "State".
 */
export const contentClientQueryOptions = queryOptions({
  queryKey: [...clientConfigQueryKey, 'content-client'] as const,
  queryFn: async ({ client }): Promise<ContentClient> =>
    createContentClient(
      await client.ensureQueryData(clientConfigQueryOptions),
      window.location.origin,
    ),
  staleTime: Infinity,
  gcTime: Infinity,
  // A client object with a class instance inside: nothing to share structurally.
  structuralSharing: false,
});

/** The content client of the app that owns `queryClient`, made on first use. */
export function getContentClient(queryClient: QueryClient): Promise<ContentClient> {
  return queryClient.ensureQueryData(contentClientQueryOptions);
}
