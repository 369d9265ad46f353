import {
  createTokenResponseSchema,
  deleteTokenResponseSchema,
  listTokensResponseSchema,
} from '@sticky/contracts';
import type { CreateTokenResponse, ItemVisibility } from '@sticky/contracts';
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

/**
 * `POST /api/tokens`: the answer holds the secret, shown once. `visibility` is what its uploads
 * get when they name none (ShareX names none).
 */
export function createToken(
  name: string,
  visibility: ItemVisibility,
): Promise<CreateTokenResponse> {
  return apiPost('/api/tokens', { name, visibility }, createTokenResponseSchema);
}

/** `DELETE /api/tokens/{id}` */
export function revokeToken(id: string) {
  return apiDelete(`/api/tokens/${encodeURIComponent(id)}`, deleteTokenResponseSchema);
}
