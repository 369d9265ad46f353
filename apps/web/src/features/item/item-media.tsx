import { Pause, Play } from 'lucide-react';
import { useLayoutEffect, useRef, useState } from 'react';
import type { RefObject } from 'react';
import {
  getAltText,
  getRenditionSources,
  getStillFor,
  pickDetailRendition,
  usePrefersReducedMotion,
} from '@/features/content';
import type { ContentItem } from '@/features/content';

/** Before the first measurement: a phone-sized guess, so a small rendition loads first. */
const defaultWidth = 480;

function useDisplayWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(defaultWidth);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      const ratio = Math.min(window.devicePixelRatio || 1, 2);
      const cssWidth = element.clientWidth;
      // Only ever grow: a narrower window keeps the rendition already loaded.
      if (cssWidth > 0) setWidth((current) => Math.max(current, Math.round(cssWidth * ratio)));
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/**
 * The item itself, in the largest rendition that fits its column, with a visible pause/play
 * control (WCAG 2.2.2). With reduced motion it starts paused, showing the still frame.
 */
export function ItemMedia({ item }: { item: ContentItem }) {
  const containerRef = useRef<HTMLDivElement>(null);
  const maxWidth = useDisplayWidth(containerRef);
  const isMotionReduced = usePrefersReducedMotion();
  const [pausedChoice, setPausedChoice] = useState<boolean | null>(null);
  const isPaused = pausedChoice ?? isMotionReduced;

  const choice = pickDetailRendition(item, maxWidth);
  const animated = getRenditionSources(choice?.rendition);
  const still = choice ? getRenditionSources(getStillFor(item, choice.name)) : null;
  const sources = isPaused && still ? still : animated;
  const original = getRenditionSources(item.images?.original);
  const width = original?.width || animated?.width || 1;
  const height = original?.height || animated?.height || 1;

  return (
    // The outer box measures the space; the inner one hugs the image so the control sits on it.
    <div ref={containerRef} className="w-full">
      <div className="relative mx-auto w-fit max-w-full">
        {sources ? (
          <picture>
            {sources.webp && !(isPaused && still) && (
              <source type="image/webp" srcSet={sources.webp} />
            )}
            <img
              src={sources.url}
              alt={getAltText(item)}
              width={width}
              height={height}
              className="block h-auto max-h-[70vh] max-w-full rounded-lg object-contain"
              style={{ aspectRatio: `${width} / ${height}` }}
            />
          </picture>
        ) : (
          <p className="py-10 text-center text-gray-300">{getAltText(item)}</p>
        )}
        {still && (
          <button
            type="button"
            onClick={() => setPausedChoice(!isPaused)}
            aria-label={isPaused ? 'Play animation' : 'Pause animation'}
            className="absolute right-2 bottom-2 inline-flex size-10 items-center justify-center rounded-full bg-gray-900/80 text-white ring-1 ring-white/20 hover:bg-gray-900"
          >
            {isPaused ? (
              <Play aria-hidden="true" className="size-5" />
            ) : (
              <Pause aria-hidden="true" className="size-5" />
            )}
          </button>
        )}
      </div>
    </div>
  );
}
