import type { SessionUser } from '@sticky/contracts';
import { useQuery } from '@tanstack/react-query';
import { meQueryOptions } from './me-api.ts';

export interface AuthState {
  user: SessionUser | null;
  /** True until the first session check has answered (the spec's `loadingUser`). */
  isLoading: boolean;
}

export function useAuth(): AuthState {
  const { data, isPending } = useQuery(meQueryOptions);
  return { user: data ?? null, isLoading: isPending };
}
