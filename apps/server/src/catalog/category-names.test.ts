import { describe, expect, it } from 'vitest';
import { encodeCategoryName } from './category-names.ts';

describe('encodeCategoryName', () => {
  it('collapses "&" and spaces to one dash, as GIPHY does', () => {
    expect(encodeCategoryName('news & politics')).toBe('news-politics');
    expect(encodeCategoryName('Smileys & Emotion')).toBe('smileys-emotion');
    expect(encodeCategoryName('  Animated   text ')).toBe('animated-text');
  });

  it('keeps existing dashes, drops apostrophes and keeps letters beyond ASCII', () => {
    expect(encodeCategoryName('test-pattern')).toBe('test-pattern');
    expect(encodeCategoryName("Valentine's Day")).toBe('valentines-day');
    expect(encodeCategoryName('Café Über')).toBe('café-über');
  });
});
