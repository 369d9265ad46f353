import { describe, expect, it } from 'vitest';
import { formatMissingSummary } from './renditions-command.ts';

describe('npm run sticky -- renditions', () => {
  it('says how many items lacked how many renditions', () => {
    expect(formatMissingSummary({ items: 1200, queued: 57, renditions: 57 })).toBe(
      'Read 1200 items: 57 lacked 57 renditions between them, queued to be made.',
    );
  });

  it('says so when there is nothing to do', () => {
    expect(formatMissingSummary({ items: 96, queued: 0, renditions: 0 })).toBe(
      'Read 96 items: every one has all its renditions; nothing to do.',
    );
  });
});
