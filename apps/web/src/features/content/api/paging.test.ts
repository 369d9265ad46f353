import { describe, expect, it } from 'vitest';
import type { ContentListResult } from '../content-types.ts';
import { toContentPage } from './paging.ts';

const page = (count: number, pagination?: Partial<ContentListResult['pagination']>) =>
  ({
    data: Array.from({ length: count }, (_, i) => ({ id: `i${i}` })),
    pagination,
  }) as unknown as ContentListResult;

describe('toContentPage', () => {
  it('continues after offset + count while below total_count', () => {
    expect(
      toContentPage(page(25, { offset: 0, count: 25, total_count: 60 }), 0, 25).nextOffset,
    ).toBe(25);
    expect(
      toContentPage(page(25, { offset: 25, count: 25, total_count: 60 }), 25, 25).nextOffset,
    ).toBe(50);
  });

  it('stops at total_count', () => {
    expect(
      toContentPage(page(10, { offset: 50, count: 10, total_count: 60 }), 50, 25).nextOffset,
    ).toBeUndefined();
    expect(
      toContentPage(page(25, { offset: 0, count: 25, total_count: 25 }), 0, 25).nextOffset,
    ).toBeUndefined();
  });

  it('stops on an empty page even when total_count says more', () => {
    expect(
      toContentPage(page(0, { offset: 0, count: 0, total_count: 100 }), 0, 25).nextOffset,
    ).toBeUndefined();
  });

  it('without pagination, a short page is the last', () => {
    expect(toContentPage(page(25), 0, 25).nextOffset).toBe(25);
    expect(toContentPage(page(7), 25, 25).nextOffset).toBeUndefined();
  });

  it('stops before GIPHY’s largest offset', () => {
    expect(
      toContentPage(page(25, { offset: 4975, count: 25, total_count: 100000 }), 4975, 25)
        .nextOffset,
    ).toBeUndefined();
  });
});
