import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildSynonymMap, synonymMapFile } from './synonym-map-build.ts';

describe('synonym-map.json', () => {
  it('is what `npm run synonyms` makes of the installed WordNet and emojibase-data', () => {
    const committed = JSON.parse(fs.readFileSync(synonymMapFile, 'utf8')) as unknown;
    expect(committed).toEqual(buildSynonymMap());
  });
});
