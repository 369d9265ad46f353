import { describe, expect, it } from 'vitest';
import { buildCaption, cleanWord } from './caption-words.ts';

describe('caption words', () => {
  it('keeps words and drops single letters, symbols and misread mixtures', () => {
    expect(cleanWord('HAPPY!')).toBe('HAPPY');
    expect(cleanWord("don't")).toBe("don't");
    expect(cleanWord('GRR!')).toBe('GRR');
    expect(cleanWord('A')).toBeUndefined();
    expect(cleanWord('|')).toBeUndefined();
    expect(cleanWord('[T')).toBeUndefined();
    expect(cleanWord('600D')).toBeUndefined();
    expect(cleanWord('HALLoween')).toBeUndefined();
    expect(cleanWord('Rnd')).toBeUndefined();
    expect(cleanWord('CY')).toBeUndefined();
    expect(cleanWord('OK')).toBe('OK');
    expect(cleanWord('2024')).toBe('2024');
    expect(cleanWord('00')).toBeUndefined();
  });

  it('keeps a word sure once or fairly sure twice, in reading order, each once', () => {
    const caption = buildCaption([
      [
        { text: 'WHEN', confidence: 90 },
        { text: 'CODE', confidence: 50 },
        { text: 'ow', confidence: 95 },
      ],
      [
        { text: 'code', confidence: 60 },
        { text: 'WORKS', confidence: 40 },
        { text: 'when', confidence: 80 },
      ],
    ]);
    expect(caption).toBe('WHEN code');
  });

  it('is empty when nothing passes', () => {
    expect(buildCaption([])).toBe('');
    expect(buildCaption([[{ text: 'xq', confidence: 99 }]])).toBe('');
  });
});
