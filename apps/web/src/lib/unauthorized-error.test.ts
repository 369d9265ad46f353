import { FetchError } from '@giphy/js-fetch-api';
import { describe, expect, it } from 'vitest';
import { ApiClientError } from './api-client.ts';
import { isUnauthorizedError } from './unauthorized-error.ts';

const ownV1 = (path: string) => `${window.location.origin}/v1/${path}?api_key=sticky-web`;

describe('isUnauthorizedError', () => {
  it('is true for a 401 from /api', () => {
    expect(isUnauthorizedError(new ApiClientError(401, 'unauthorized', 'Sign in.'))).toBe(true);
  });

  it("is true for GIPHY's client getting 401 from our own /v1", () => {
    expect(
      isUnauthorizedError(new FetchError('@giphy/js-fetch-api: x', ownV1('gifs/trending'), 401)),
    ).toBe(true);
  });

  it.each([
    ['another status from /api', new ApiClientError(403, 'forbidden', 'No.')],
    ['another status from /v1', new FetchError('x', ownV1('gifs/abc'), 404)],
    ['a 401 from GIPHY itself', new FetchError('x', 'https://api.giphy.com/v1/gifs/abc', 401)],
    [
      'a 401 from elsewhere on our origin',
      new FetchError('x', `${window.location.origin}/media/a.gif`, 401),
    ],
    [
      'a network failure of the client (status 0)',
      new FetchError('Failed to fetch', ownV1('gifs/abc')),
    ],
    ['an error without a status', new Error('boom')],
    ['something that is not an error', { status: 401, url: ownV1('gifs/abc') }],
    ['nothing', undefined],
  ])('is false for %s', (_label, error) => {
    expect(isUnauthorizedError(error)).toBe(false);
  });
});
