import { clientConfigFirstScreenSchema } from '@sticky/contracts/first-screen';
import type { ClientConfig } from '@sticky/contracts';
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from './api-client.ts';

/** `GET /api/config`: where content comes from and which optional scripts to load. */
export function fetchClientConfig(signal?: AbortSignal): Promise<ClientConfig> {
  // The first screen needs it (content source, landing analytics): checked without zod.
  return apiGet('/api/config', clientConfigFirstScreenSchema, { signal });
}

export const clientConfigQueryKey = ['config'] as const;

/** The app's one query of the runtime config; the content client is made from its answer. */
export const clientConfigQueryOptions = queryOptions({
  queryKey: clientConfigQueryKey,
  queryFn: ({ signal }) => fetchClientConfig(signal),
  // The server sends it with max-age=60; it only changes when the server restarts.
  staleTime: 5 * 60_000,
});
