import type { ClientConfig } from '@sticky/contracts';
import { vi } from 'vitest';
import type { ContentClient } from '../content-client.ts';

/** A stand-in for GIPHY's client: every method is a spy the test answers. */
export function createFakeGiphyFetch() {
  return {
    trending: vi.fn(),
    search: vi.fn(),
    gif: vi.fn(),
    gifs: vi.fn(),
    related: vi.fn(),
    categories: vi.fn(),
    subcategories: vi.fn(),
  };
}
export type FakeGiphyFetch = ReturnType<typeof createFakeGiphyFetch>;

export const localConfig: ClientConfig = {
  source: 'local',
  apiKey: 'sticky-web',
  analyticsScriptUrl: null,
};
export const giphyConfig: ClientConfig = {
  source: 'giphy',
  apiKey: 'test-key',
  apiUrl: 'http://giphy.test/v1',
  analyticsScriptUrl: null,
};

/** What `getContentClient()` resolves to in a test; pass it to the module mock. */
export function fakeContentClient(gf: FakeGiphyFetch, config: ClientConfig = localConfig) {
  const withParams = vi.fn(() => gf);
  return { config, gf, withParams } as unknown as ContentClient & { withParams: typeof withParams };
}
