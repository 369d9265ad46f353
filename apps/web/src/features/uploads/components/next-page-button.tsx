import type { UseInfiniteQueryResult } from '@tanstack/react-query';
import { buttonStyles } from '@/components/button-styles.ts';

interface NextPageButtonProps {
  query: Pick<UseInfiniteQueryResult, 'hasNextPage' | 'isFetchingNextPage' | 'fetchNextPage'>;
  label: string;
}

/** Under a list read a page at a time: the next page, once, while none is on its way. */
export function NextPageButton({ query, label }: NextPageButtonProps) {
  if (!query.hasNextPage) return null;
  return (
    <button
      type="button"
      className={`${buttonStyles.secondary} self-center`}
      aria-disabled={query.isFetchingNextPage || undefined}
      onClick={() => !query.isFetchingNextPage && void query.fetchNextPage()}
    >
      {query.isFetchingNextPage ? 'Loading…' : label}
    </button>
  );
}
