import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { meQueryKey } from '@/features/auth';
import { isUnauthorizedError } from '@/lib/unauthorized-error.ts';

function readStatus(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

/** The app's one QueryClient: shared defaults and what a 401 anywhere means. */
export function createQueryClient(): QueryClient {
  // A 401 from any of our endpoints, /api or /v1, means the session ended (expired, or logged
  // out in another tab): forget the user, and the route guards take the visitor to /landing
  // instead of leaving a Retry that cannot work. docs/web.md, "Session".
  const forgetUserOnUnauthorized = (error: unknown) => {
    if (isUnauthorizedError(error)) {
      queryClient.setQueryData(meQueryKey, null);
    }
  };
  const queryClient: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: forgetUserOnUnauthorized }),
    mutationCache: new MutationCache({ onError: forgetUserOnUnauthorized }),
    defaultOptions: {
      queries: {
        // GIPHY's client caches for 60 s itself (docs/web.md, "State"); refetching sooner buys
        // nothing.
        staleTime: 60_000,
        refetchOnWindowFocus: false,
        // One more try for network trouble and 5xx; a 4xx answer will not change by asking again.
        retry: (failureCount, error) => {
          const status = readStatus(error);
          if (status !== undefined && status >= 400 && status < 500) return false;
          return failureCount < 1;
        },
      },
    },
  });
  return queryClient;
}
