import { aboveFoldPercent, layoutMasonry } from '@sticky/contracts/tile-layout';
import { useInfiniteQuery } from '@tanstack/react-query';
import type { InfiniteData, QueryKey, UseInfiniteQueryOptions } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { detectMediaSupport } from '@/lib/media-support.ts';
import { getAspectRatio } from '../content-item.ts';
import type { ContentPage } from '../content-types.ts';
import { useBreakpoint, usePrefersReducedMotion } from '../hooks/use-media-query.ts';
import { uniqueById } from '../unique-by-id.ts';
import { createTileObserver } from '../media/tile-observer.ts';
import { TileObserverContext } from '../media/use-tile-visibility.ts';
import { ErrorState } from './error-state.tsx';
import { GifTile } from './gif-tile.tsx';
import { LoadingIndicator } from './loading-indicator.tsx';
import { PoweredByGiphy } from './powered-by-giphy.tsx';

export type ContentGridQuery<TQueryKey extends QueryKey> = UseInfiniteQueryOptions<
  ContentPage,
  Error,
  InfiniteData<ContentPage>,
  TQueryKey,
  number
>;

export interface ContentGridProps<TQueryKey extends QueryKey> {
  query: ContentGridQuery<TQueryKey>;
  /** Columns on small, medium (Tailwind md) and large (lg) screens. */
  columns: { small: number; medium: number; large: number };
  /** Shown when the source has nothing (after skipping, if any). */
  emptyState: ReactNode;
  /** The spec skips the first related item: it is usually the item itself. */
  skipFirst?: boolean;
  /** Names the list for screen readers. */
  label: string;
}

/** How far below the fold the next page starts loading. */
const prefetchMargin = '800px 0px';

/**
 * A masonry grid over an infinite query: pages load as the end comes near, until the
 * source's `total_count`; an id is shown once however often the source repeats it. A failed
 * load shows the client's message in the grid's place (or under it) with a Retry button.
 */
export function ContentGrid<TQueryKey extends QueryKey>({
  query,
  columns,
  emptyState,
  skipFirst = false,
  label,
}: ContentGridProps<TQueryKey>) {
  const result = useInfiniteQuery(query);
  const { data, error, isPending, isError, hasNextPage, isFetchingNextPage, isFetchNextPageError } =
    result;
  const { fetchNextPage, refetch } = result;
  const breakpoint = useBreakpoint();
  const isMotionReduced = usePrefersReducedMotion();
  const columnCount = columns[breakpoint];
  // One observer and one format check for all the tiles, made with the grid, ended with it.
  const [tileObserver] = useState(createTileObserver);
  useEffect(() => () => tileObserver?.disconnect(), [tileObserver]);
  const [mediaSupport] = useState(detectMediaSupport);

  const items = useMemo(() => {
    const all = data?.pages.flatMap((page) => page.items) ?? [];
    return uniqueById(skipFirst ? all.slice(1) : all);
  }, [data, skipFirst]);
  const layout = useMemo(
    () => layoutMasonry(items, columnCount, getAspectRatio),
    [items, columnCount],
  );

  const sentinelRef = useRef<HTMLDivElement>(null);
  const canLoadMore = Boolean(hasNextPage) && !isFetchingNextPage && !isFetchNextPageError;
  useEffect(() => {
    const sentinel = sentinelRef.current;
    if (!sentinel || !canLoadMore || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) void fetchNextPage();
      },
      { rootMargin: prefetchMargin },
    );
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [canLoadMore, fetchNextPage, items.length]);

  if (isPending) return <LoadingIndicator />;
  if (isError && !data) {
    return <ErrorState message={error.message} onRetry={() => void refetch()} />;
  }
  if (items.length === 0 && !hasNextPage) return <>{emptyState}</>;

  return (
    <TileObserverContext value={tileObserver}>
      <div>
        <div className="mb-2 flex justify-end empty:hidden">
          <PoweredByGiphy />
        </div>
        <ul
          aria-label={label}
          className="relative m-0 list-none p-0"
          // The padding gives the list the tallest column's height (percent of the width).
          style={{ paddingTop: `${layout.height}%` }}
        >
          {layout.placements.map((placement) => (
            <li
              key={String(placement.item.id)}
              className="absolute top-0"
              style={{
                left: `${placement.left}%`,
                width: `${placement.width}%`,
                // Percentage margins refer to the grid's width, as every length here does.
                marginTop: `${placement.top}%`,
              }}
            >
              <GifTile
                item={placement.item}
                index={placement.index}
                isMotionReduced={isMotionReduced}
                isAboveFold={placement.top < aboveFoldPercent}
                // A phone's first tiles paint their posters first (on `/`, the server's
                // preloads: docs/web.md, "Media").
                isPosterFirst={breakpoint === 'small' && placement.top < aboveFoldPercent}
                mediaSupport={mediaSupport}
                style={{ aspectRatio: String(getAspectRatio(placement.item)) }}
              />
            </li>
          ))}
        </ul>
        <div ref={sentinelRef} data-testid="grid-end" />
        {isFetchingNextPage && <LoadingIndicator label="Loading more…" />}
        {isFetchNextPageError && error && (
          <ErrorState message={error.message} onRetry={() => void fetchNextPage()} />
        )}
      </div>
    </TileObserverContext>
  );
}
