import { mediumScreenQuery } from '@sticky/contracts/tile-layout';
import { useMediaQuery } from '@/lib/use-media-query.ts';

export function usePrefersReducedMotion(): boolean {
  return useMediaQuery('(prefers-reduced-motion: reduce)');
}

/** Tailwind's `md` (48rem) and `lg` (64rem) breakpoints, as the spec's column counts use. */
export function useBreakpoint(): 'small' | 'medium' | 'large' {
  const isLarge = useMediaQuery('(min-width: 64rem)');
  const isMedium = useMediaQuery(mediumScreenQuery);
  return isLarge ? 'large' : isMedium ? 'medium' : 'small';
}
