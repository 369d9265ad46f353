import { useSyncExternalStore } from 'react';

function subscribeTo(query: string) {
  return (onChange: () => void) => {
    if (typeof window === 'undefined' || !window.matchMedia) return () => {};
    const list = window.matchMedia(query);
    list.addEventListener('change', onChange);
    return () => list.removeEventListener('change', onChange);
  };
}

/** Whether a media query matches now; re-renders when that changes. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    subscribeTo(query),
    () => (typeof window !== 'undefined' && window.matchMedia?.(query).matches) || false,
    () => false,
  );
}

export function usePrefersReducedMotion(): boolean {
  return useMediaQuery('(prefers-reduced-motion: reduce)');
}

/** Tailwind's `md` (48rem) and `lg` (64rem) breakpoints, as the spec's column counts use. */
export function useBreakpoint(): 'small' | 'medium' | 'large' {
  const isLarge = useMediaQuery('(min-width: 64rem)');
  const isMedium = useMediaQuery('(min-width: 48rem)');
  return isLarge ? 'large' : isMedium ? 'medium' : 'small';
}
