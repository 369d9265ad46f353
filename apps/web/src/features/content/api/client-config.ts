import { queryOptions } from '@tanstack/react-query';
import { getContentClient } from '../content-client.ts';

/** The runtime config (content source), shared with the content client's own request. */
export const clientConfigQueryOptions = () =>
  queryOptions({
    queryKey: ['content', 'config'],
    queryFn: async () => (await getContentClient()).config,
    staleTime: Infinity,
  });
