import type { ClientConfig } from '@sticky/contracts';
import { beforeEach, vi } from 'vitest';
import type { Mock } from 'vitest';
import type { ContentClient } from '@/features/content';

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

/** The content client a rendered screen uses (`renderRoute(..., { content })`). */
export interface FakeContent {
  gf: FakeGiphyFetch;
  /** `withParams` is a spy too; it answers with `gf`. */
  client: ContentClient & { withParams: Mock };
}

export function createFakeContent(
  config: ClientConfig = localConfig,
  gf: FakeGiphyFetch = createFakeGiphyFetch(),
): FakeContent {
  const withParams = vi.fn(() => gf);
  const client = { config, gf, withParams } as unknown as FakeContent['client'];
  return { gf, client };
}

/**
 * The preamble of a screen test: a fresh fake GIPHY client before each test. The handle reads
 * the current test's; pass it to the render helpers as `content`.
 */
export function setUpFakeContent(config: ClientConfig = localConfig): FakeContent {
  let current: FakeContent | undefined;
  beforeEach(() => {
    current = createFakeContent(config);
  });
  const read = () => {
    if (!current) throw new Error('setUpFakeContent: read it inside a test, not at collection');
    return current;
  };
  return {
    get gf() {
      return read().gf;
    },
    get client() {
      return read().client;
    },
  };
}
