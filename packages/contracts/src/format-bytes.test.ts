import { describe, expect, it } from 'vitest';
import { formatBytes } from './format-bytes.ts';

describe('formatBytes', () => {
  it('writes kilobytes under a megabyte and megabytes above, with no ".0"', () => {
    expect(formatBytes(0)).toBe('0 KB');
    expect(formatBytes(512 * 1024)).toBe('512 KB');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(1024 * 1024)).toBe('1 MB');
    expect(formatBytes(1.3 * 1024 * 1024)).toBe('1.3 MB');
    expect(formatBytes(20 * 1024 * 1024)).toBe('20 MB');
    expect(formatBytes(2048 * 1024 * 1024)).toBe('2048 MB');
  });
});
