import { describe, expect, it } from 'vitest';
import { getIdFromSlug, getItemPath, getItemType, pickDetailRendition } from './content-item.ts';
import type { ContentItem } from './content-types.ts';

const item = (fields: Record<string, unknown>) => fields as unknown as ContentItem;

describe('getItemType', () => {
  it('maps GIPHY’s type and is_sticker to the route segment', () => {
    expect(getItemType(item({ type: 'gif', is_sticker: false }))).toBe('gif');
    expect(getItemType(item({ type: 'sticker', is_sticker: true }))).toBe('sticker');
    expect(getItemType(item({ type: 'gif', is_sticker: true }))).toBe('sticker');
    // Animated text is transparent (is_sticker) but stays text.
    expect(getItemType(item({ type: 'text', is_sticker: true }))).toBe('text');
  });
});

describe('item paths and ids', () => {
  it('links to /:type/:slug and reads the id back from the slug’s last segment', () => {
    const path = getItemPath(item({ type: 'gif', id: 'abc123', slug: 'happy-dance-abc123' }));
    expect(path).toBe('/gif/happy-dance-abc123');
    expect(getIdFromSlug('happy-dance-abc123')).toBe('abc123');
    expect(getIdFromSlug('abc123')).toBe('abc123');
  });

  it('falls back to the id when the slug does not end with it', () => {
    expect(getItemPath(item({ type: 'text', id: 'xyz', slug: 'something-else' }))).toBe(
      '/text/xyz',
    );
  });
});

describe('pickDetailRendition', () => {
  const images = {
    original: { url: 'o', width: 800, height: 600 },
    downsized: { url: 'd', width: 480, height: 360 },
    fixed_width: { url: 'f', width: 200, height: 150 },
  };
  it('takes the largest rendition that fits the width', () => {
    expect(pickDetailRendition(item({ images }), 1000)?.name).toBe('original');
    expect(pickDetailRendition(item({ images }), 600)?.name).toBe('downsized');
    expect(pickDetailRendition(item({ images }), 300)?.name).toBe('fixed_width');
  });
  it('takes the smallest when none fits, and nothing without renditions', () => {
    expect(pickDetailRendition(item({ images }), 100)?.name).toBe('fixed_width');
    expect(pickDetailRendition(item({ images: {} }), 100)).toBeNull();
  });
});
