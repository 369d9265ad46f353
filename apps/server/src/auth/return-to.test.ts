import { describe, expect, it } from 'vitest';
import { parseReturnTo } from './return-to.ts';

describe('parseReturnTo', () => {
  it('keeps a path on this site, with its query and fragment', () => {
    expect(parseReturnTo('/search/cats')).toBe('/search/cats');
    expect(parseReturnTo('/gif/funny-cat-abc123?x=1#top')).toBe('/gif/funny-cat-abc123?x=1#top');
    expect(parseReturnTo('/')).toBe('/');
  });

  it('refuses anything a browser could take to another site', () => {
    for (const value of [
      '//evil.example',
      '//evil.example/path',
      '/\\evil.example',
      '\\\\evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      'https://evil.example/',
      'http:evil.example',
      'javascript:alert(1)',
      'evil.example',
      '',
      `/${'a'.repeat(2000)}`,
    ]) {
      expect(parseReturnTo(value), JSON.stringify(value)).toBeNull();
    }
  });
});
