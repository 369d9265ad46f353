import { describe, expect, it } from 'vitest';
import { tooLongIssue } from './giphy-params.ts';
import { animateParamsSchema, countGraphemes, normalizeAnimatePhrase } from './text-animate.ts';

const parse = (query: Record<string, unknown>) => animateParamsSchema.safeParse(query);
const statusOf = (query: Record<string, unknown>) => {
  const result = parse(query);
  if (result.success) return 'ok';
  const issue = result.error.issues[0];
  const status = issue?.code === 'custom' ? issue.params?.status : undefined;
  return status === tooLongIssue ? 414 : 400;
};

describe('text/animate parameters', () => {
  it('tidies the phrase so spacing differences draw the same thing', () => {
    expect(normalizeAnimatePhrase('  Hello \n\t wörld  ')).toBe('Hello wörld');
    // NFC: a decomposed é becomes the one character people see.
    expect(normalizeAnimatePhrase('e\u0301')).toBe('é');
    const parsed = parse({ m: ' hi  there ', limit: '2', offset: '1' });
    expect(parsed.success && parsed.data).toEqual({ m: 'hi there', limit: 2, offset: 1 });
  });

  it('counts characters as people do', () => {
    expect(countGraphemes('👍🏽')).toBe(1);
    expect(countGraphemes('👨‍👩‍👧')).toBe(1);
    expect(countGraphemes('héllo')).toBe(5);
  });

  it('refuses a missing, empty or invisible phrase (400) and one over 50 characters (414)', () => {
    for (const m of [undefined, '', '   ', '\u200b', '\u200d\u200d', 'undefined']) {
      expect(statusOf({ m }), JSON.stringify(m)).toBe(400);
    }
    expect(statusOf({ m: ['a', 'b'] })).toBe(400);
    expect(statusOf({ m: 'a'.repeat(50) })).toBe('ok');
    expect(statusOf({ m: 'a'.repeat(51) })).toBe(414);
    expect(statusOf({ m: '😀'.repeat(50) })).toBe('ok');
    expect(statusOf({ m: '😀'.repeat(51) })).toBe(414);
    // Fifty letters buried under combining marks are still too much to draw.
    expect(statusOf({ m: ('a' + '\u0316\u0317\u0318\u0319\u031c').repeat(45) })).toBe(414);
  });
});
