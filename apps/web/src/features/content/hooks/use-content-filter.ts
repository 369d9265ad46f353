import type { ContentFilter } from '@sticky/contracts';
import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { parseContentFilter } from '@/lib/content-filter.ts';

/**
 * The content filter lives in the URL (`?type=`), so it is shareable, survives a reload and
 * is the same on home and search. `gifs` is the default and is left out of the URL.
 */
export function useContentFilter(): [ContentFilter, (next: ContentFilter) => void] {
  const [searchParams, setSearchParams] = useSearchParams();
  const filter = parseContentFilter(searchParams.get('type'));
  const setFilter = useCallback(
    (next: ContentFilter) => {
      // A query-only change keeps the scroll position (app/scroll-restoration.tsx).
      setSearchParams((current) => {
        const params = new URLSearchParams(current);
        if (next === 'gifs') params.delete('type');
        else params.set('type', next);
        return params;
      });
    },
    [setSearchParams],
  );
  return [filter, setFilter];
}
