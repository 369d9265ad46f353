import {
  createTokenResponseSchema,
  deleteTokenResponseSchema,
  listTokensResponseSchema,
  revokeTokensResponseSchema,
} from '@sticky/contracts';
import type { CreateTokenRequest, CreateTokenResponse } from '@sticky/contracts';
import { queryOptions } from '@tanstack/react-query';
import { apiDelete, apiGet, apiPost } from '@/lib/api-client.ts';

export const tokensQueryKey = ['tokens'] as const;

/** `GET /api/tokens`: my API tokens, newest first (never their secrets). */
export const tokensQueryOptions = () =>
  queryOptions({
    queryKey: tokensQueryKey,
    queryFn: async ({ signal }) =>
      (await apiGet('/api/tokens', listTokensResponseSchema, { signal })).tokens,
  });

/** `POST /api/tokens`: the answer holds the secret, shown once. */
export function createToken(request: CreateTokenRequest): Promise<CreateTokenResponse> {
  return apiPost('/api/tokens', request, createTokenResponseSchema);
}

/** `DELETE /api/tokens/{id}` */
export function revokeToken(id: string) {
  return apiDelete(`/api/tokens/${encodeURIComponent(id)}`, deleteTokenResponseSchema);
}

/** `DELETE /api/tokens`: every one of my tokens ("Revoke every token"). */
export function revokeAllTokens() {
  return apiDelete('/api/tokens', revokeTokensResponseSchema);
}
