import { FetchError } from '@giphy/js-fetch-api';
import { describe, expect, it } from 'vitest';
import { meQueryKey } from '@/features/auth';
import { ApiClientError } from '@/lib/api-client.ts';
import { createQueryClient } from './query-client.ts';

const user = {
  id: 'u1',
  name: 'Ada',
  email: 'ada@example.com',
  picture: null,
  isAdmin: false,
  canUpload: true,
};

describe('query client', () => {
  it('forgets the user when any query answers 401 (the session ended)', async () => {
    const queryClient = createQueryClient();
    queryClient.setQueryData(meQueryKey, user);
    await queryClient
      .fetchQuery({
        queryKey: ['favorites'],
        queryFn: () => Promise.reject(new ApiClientError(401, 'unauthorized', 'Sign in.')),
        retry: false,
      })
      .catch(() => {});
    expect(queryClient.getQueryData(meQueryKey)).toBeNull();
  });

  it("forgets the user when GIPHY's client gets 401 from our /v1", async () => {
    const queryClient = createQueryClient();
    queryClient.setQueryData(meQueryKey, user);
    const url = `${window.location.origin}/v1/gifs/trending?api_key=sticky-web`;
    await queryClient
      .fetchQuery({
        queryKey: ['content', 'trending', 'gifs'],
        queryFn: () => Promise.reject(new FetchError('@giphy/js-fetch-api: x', url, 401)),
      })
      .catch(() => {});
    expect(queryClient.getQueryData(meQueryKey)).toBeNull();
  });

  it('forgets the user when a write answers 401', async () => {
    const queryClient = createQueryClient();
    queryClient.setQueryData(meQueryKey, user);
    await queryClient
      .getMutationCache()
      .build(queryClient, {
        mutationFn: () => Promise.reject(new ApiClientError(401, 'unauthorized', 'Sign in.')),
      })
      .execute(undefined)
      .catch(() => {});
    expect(queryClient.getQueryData(meQueryKey)).toBeNull();
  });

  it('keeps the user on other failures', async () => {
    const queryClient = createQueryClient();
    queryClient.setQueryData(meQueryKey, user);
    await queryClient
      .fetchQuery({
        queryKey: ['favorites'],
        queryFn: () => Promise.reject(new ApiClientError(403, 'forbidden', 'No.')),
      })
      .catch(() => {});
    expect(queryClient.getQueryData(meQueryKey)).toEqual(user);
  });

  it('retries once on a server error but never on a 4xx', async () => {
    const queryClient = createQueryClient();
    const retry = queryClient.getDefaultOptions().queries?.retry as (
      count: number,
      error: unknown,
    ) => boolean;
    expect(retry(0, new ApiClientError(503, 'unavailable', ''))).toBe(true);
    expect(retry(1, new ApiClientError(503, 'unavailable', ''))).toBe(false);
    expect(retry(0, new ApiClientError(404, 'not_found', ''))).toBe(false);
    expect(retry(0, new TypeError('network'))).toBe(true);
  });
});
