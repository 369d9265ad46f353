import { describe, expect, it } from 'vitest';
import type { SeedSummary } from '../catalog/starter/seed.ts';
import { formatSeedSummary } from './seed-command.ts';

const base: SeedSummary = {
  status: 'seeded',
  version: 1,
  imported: 310,
  duplicates: 9,
  failed: [],
  byType: { sticker: 167, gif: 48, text: 104 },
  ms: 61_234,
};

describe('npm run sticky -- seed', () => {
  it('says what was made, by type, and how long it took', () => {
    expect(formatSeedSummary(base)).toBe(
      'Starter catalog v1: made 310 items, 9 were already there (167 stickers, 48 GIFs, 104 animated text) in 61.2 s.',
    );
  });

  it('lists every item that could not be made', () => {
    const text = formatSeedSummary({
      ...base,
      failed: [{ key: 'gif:Party', reason: 'disk full' }],
    });
    expect(text).toContain('1 could not be made:\n  gif:Party: disk full');
  });

  it('says so when there is nothing to do, or another process is at it', () => {
    expect(formatSeedSummary({ ...base, status: 'already-seeded' })).toMatch(
      /already there; nothing to do\. Use --force/,
    );
    expect(formatSeedSummary({ ...base, status: 'busy' })).toMatch(/another Sticky process/);
  });
});
