import { Pause, Play } from 'lucide-react';
import { useLayoutEffect, useRef, useState } from 'react';
import type { RefObject } from 'react';
import {
  getAltText,
  getRenditionSources,
  getStillFor,
  LoopingVideo,
  pickAnimatedSource,
  pickDetailRendition,
  RenditionPicture,
  usePrefersReducedMotion,
} from '@/features/content';
import type { ContentItem, ImageSources } from '@/features/content';
import { detectMediaSupport } from '@/lib/media-support.ts';

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
 * The item itself, in the largest rendition that fits its column, in the lightest form the
 * browser plays (docs/web.md, "Media"): its MP4 (WebM with alpha for stickers and text where
 * alpha plays) with the still as poster, else animated WebP with the GIF as fallback. A visible
 * pause/play control (WCAG 2.2.2) swaps it for the still frame; with reduced motion it starts
 * paused.
 */
export function ItemMedia({ item }: { item: ContentItem }) {
  const containerRef = useRef<HTMLDivElement>(null);
  const maxWidth = useDisplayWidth(containerRef);
  const isMotionReduced = usePrefersReducedMotion();
  const [pausedChoice, setPausedChoice] = useState<boolean | null>(null);
  const isPaused = pausedChoice ?? isMotionReduced;
  const [mediaSupport] = useState(detectMediaSupport);
  const [failedVideo, setFailedVideo] = useState<string | null>(null);

  const choice = pickDetailRendition(item, maxWidth);
  const stillRendition = choice ? getStillFor(item, choice.name) : undefined;
  // The detail rendition's own video if it has one, else the original's (GIPHY's
  // `original.mp4`, or the same file as `original_mp4`), only when about as wide as the space
  // it fills: `/v1` answers an `original_mp4` not made yet with the 200 px tile's, which would
  // be drawn scaled up (docs/web.md, "Media").
  const neededWidth = Math.min(Number(choice?.rendition.width) || 0, maxWidth) * 0.9;
  const videoFallbacks = [item.images?.original, item.images?.original_mp4].filter(
    (rendition) => Number(rendition?.width) >= neededWidth,
  );
  const animated = pickAnimatedSource(
    item,
    choice?.rendition,
    stillRendition,
    mediaSupport,
    videoFallbacks,
  );
  const still = getRenditionSources(stillRendition);
  const original = getRenditionSources(item.images?.original);
  const width = original?.width || animated?.width || 1;
  const height = original?.height || animated?.height || 1;
  const alt = getAltText(item);
  const mediaClass = 'block h-auto max-h-[70vh] max-w-full rounded-lg object-contain';
  const mediaStyle = { aspectRatio: `${width} / ${height}` };

  let media;
  if (isPaused && still) {
    media = <MediaImage sources={still} alt={alt} width={width} height={height} isStill />;
  } else if (animated?.kind === 'video' && failedVideo !== animated.src) {
    const { src } = animated;
    media = (
      <LoopingVideo
        src={src}
        poster={animated.poster}
        label={alt}
        width={width}
        height={height}
        isPlaying
        wrapperClassName="block"
        className={mediaClass}
        style={mediaStyle}
        onError={() => setFailedVideo(src)}
      />
    );
  } else {
    const image = animated?.kind === 'video' ? animated.fallback : animated;
    media = image ? (
      <MediaImage sources={image} alt={alt} width={width} height={height} isStill={false} />
    ) : (
      <p className="py-10 text-center text-gray-300">{alt}</p>
    );
  }

  return (
    // The outer box measures the space; the inner one hugs the media so the control sits on it.
    <div ref={containerRef} className="w-full">
      <div className="relative mx-auto w-fit max-w-full">
        {media}
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

function MediaImage({
  sources,
  alt,
  width,
  height,
  isStill,
}: {
  sources: ImageSources;
  alt: string;
  width: number;
  height: number;
  isStill: boolean;
}) {
  return (
    <RenditionPicture
      sources={sources}
      alt={alt}
      isStill={isStill}
      width={width}
      height={height}
      className="block h-auto max-h-[70vh] max-w-full rounded-lg object-contain"
      style={{ aspectRatio: `${width} / ${height}` }}
    />
  );
}
