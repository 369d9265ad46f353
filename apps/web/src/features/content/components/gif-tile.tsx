import { useRef, useState } from 'react';
import type { CSSProperties } from 'react';
import { Link } from 'react-router';
import type { MediaSupport } from '@/lib/media-support.ts';
import { getAltText, getItemPath, isTransparentItem, pickTileSources } from '../content-item.ts';
import type { ImageSources } from '../content-item.ts';
import type { ContentItem } from '../content-types.ts';
import { LoopingVideo } from '../media/looping-video.tsx';
import { RenditionPicture } from '../media/rendition-picture.tsx';
import { useTileVisibility } from '../media/use-tile-visibility.ts';

const placeholderColors = ['#6d28d9', '#0e7490', '#be185d', '#15803d', '#b45309', '#1d4ed8'];

const mediaClass = 'block h-full w-full object-cover';

interface GifTileProps {
  item: ContentItem;
  index: number;
  /** With reduced motion, tiles show a still until hovered or focused. */
  isMotionReduced: boolean;
  /** On the grid's first screen: the page's largest paint is there, so it must not wait. */
  isAboveFold?: boolean;
  /**
   * On a phone, among the tiles its first screen starts with: a video paints its poster first
   * (the largest paint is among them; on `/` the server preloads those posters).
   */
  isPosterFirst?: boolean;
  mediaSupport: MediaSupport;
  style?: CSSProperties;
}

function TileImage({
  sources,
  alt,
  isAboveFold,
  isStill,
}: {
  sources: ImageSources;
  alt: string;
  isAboveFold: boolean;
  isStill: boolean;
}) {
  return (
    <RenditionPicture
      sources={sources}
      alt={alt}
      isStill={isStill}
      width={sources.width || undefined}
      height={sources.height || undefined}
      loading={isAboveFold ? 'eager' : 'lazy'}
      fetchPriority={isAboveFold ? 'high' : 'auto'}
      decoding="async"
      className={mediaClass}
    />
  );
}

/**
 * One grid item: a link to its page showing the 200 px wide rendition in the lightest form
 * the browser plays (docs/web.md, "Media"): a looping video (MP4; WebM with alpha for
 * transparent items where alpha plays) over its still, else animated WebP with the GIF as
 * fallback. It plays only on screen, and a tile far from the screen gives its media up (its
 * grid's tile observer says where it is). The box has the item's aspect ratio before
 * anything loads.
 */
export function GifTile({
  item,
  index,
  isMotionReduced,
  isAboveFold = false,
  isPosterFirst = false,
  mediaSupport,
  style,
}: GifTileProps) {
  const linkRef = useRef<HTMLAnchorElement>(null);
  const { isVisible, isNear } = useTileVisibility(linkRef, {
    isVisible: false,
    isNear: isAboveFold,
  });
  const [isActive, setIsActive] = useState(false);
  const [hasVideoFailed, setHasVideoFailed] = useState(false);
  const [hasPlayBeenRefused, setHasPlayBeenRefused] = useState(false);
  // A video's poster is fetched only where it is worth a request (docs/web.md, "Media"): on a
  // phone's first tiles, on one that takes over from its still under reduced motion, on one
  // the browser will not play. Elsewhere the video's first frame comes in its first kilobytes.
  const hasPoster = isPosterFirst || isMotionReduced || hasPlayBeenRefused;
  const { animated, still } = pickTileSources(item, mediaSupport);
  const alt = getAltText(item);
  const showStill = isMotionReduced && !isActive && still !== null;
  const isTransparent = isTransparentItem(item);
  const background = isTransparent
    ? undefined
    : placeholderColors[index % placeholderColors.length];

  let media;
  if (!isNear) {
    // Far from the screen: the box and its name stay, the media goes.
    media = <span role="img" aria-label={alt} className="block h-full w-full" />;
  } else if (showStill) {
    media = <TileImage sources={still} alt={alt} isAboveFold={isAboveFold} isStill />;
  } else if (animated?.kind === 'video' && !hasVideoFailed) {
    media = (
      <LoopingVideo
        src={animated.src}
        poster={hasPoster ? animated.poster : undefined}
        label={alt}
        width={animated.width || undefined}
        height={animated.height || undefined}
        isPlaying={isVisible}
        wrapperClassName="block h-full w-full"
        className={mediaClass}
        onError={() => setHasVideoFailed(true)}
        onPlayRefused={() => setHasPlayBeenRefused(true)}
      />
    );
  } else {
    const image = animated?.kind === 'video' ? animated.fallback : animated;
    media = image ? (
      <TileImage sources={image} alt={alt} isAboveFold={isAboveFold} isStill={false} />
    ) : (
      <span className="sr-only">{alt}</span>
    );
  }

  return (
    <Link
      ref={linkRef}
      to={getItemPath(item)}
      style={{ ...style, backgroundColor: background }}
      className={`block overflow-hidden rounded-md focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-violet-400 ${
        isTransparent ? 'bg-zinc-800' : ''
      }`}
      onMouseEnter={() => setIsActive(true)}
      onMouseLeave={() => setIsActive(false)}
      onFocus={() => setIsActive(true)}
      onBlur={() => setIsActive(false)}
      data-testid="gif-tile"
    >
      {media}
    </Link>
  );
}
