import fs from 'node:fs';
import path from 'node:path';
import { GiphyFetch, setServerUrl } from '@giphy/js-fetch-api';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fixtureFiles } from '@/test-support/giphy-fixtures.ts';
import { normalizeListAnswer } from './normalize-items.ts';

const fixturesDir = path.resolve(import.meta.dirname, '../../../../../../fixtures/giphy');
const readAnswer = (file: string): unknown =>
  JSON.parse(fs.readFileSync(path.join(fixturesDir, file), 'utf8'));

describe('normalizeListAnswer', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it.each([fixtureFiles.trending, fixtureFiles.search, fixtureFiles.legacy, fixtureFiles.stickers])(
    'makes of %s what GIPHY’s client makes of it',
    async (file) => {
      vi.stubGlobal(
        'fetch',
        vi.fn(async () => new Response(JSON.stringify(readAnswer(file)), { status: 200 })),
      );
      setServerUrl('http://giphy.test/v1/');
      // The client keeps answers per URL for a minute: each file asks its own.
      const fromClient = await new GiphyFetch('key').trending({
        offset: Object.values(fixtureFiles).indexOf(file),
      });
      expect(normalizeListAnswer(readAnswer(file))).toEqual(fromClient);
    },
  );

  it('refuses what is not a list answer', () => {
    expect(normalizeListAnswer(null)).toBeNull();
    expect(normalizeListAnswer({ data: [], pagination: {} })).toBeNull();
    expect(
      normalizeListAnswer({ data: {}, pagination: {}, meta: { response_id: 'r' } }),
    ).toBeNull();
    expect(normalizeListAnswer({ data: [], pagination: 3, meta: { response_id: 'r' } })).toBeNull();
  });
});
