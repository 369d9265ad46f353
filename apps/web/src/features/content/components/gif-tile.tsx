import { useState } from 'react';
import type { CSSProperties } from 'react';
import { Link } from 'react-router';
import { getAltText, getItemPath, getItemType, getRenditionSources } from '../content-item.ts';
import type { ContentItem, ContentRendition } from '../content-types.ts';

const placeholderColors = ['#6d28d9', '#0e7490', '#be185d', '#15803d', '#b45309', '#1d4ed8'];

interface GifTileProps {
  item: ContentItem;
  index: number;
  /** With reduced motion, tiles show a still until hovered or focused. */
  isMotionReduced: boolean;
  /** On the grid's first screen: the page's largest paint is there, so it must not wait. */
  isAboveFold?: boolean;
  style?: CSSProperties;
}

/**
 * One grid item: a link to its page showing the 200 px wide rendition, animated WebP with the
 * GIF as fallback, loaded lazily below the first screen. The box has the item's aspect ratio before
 * anything loads.
 */
export function GifTile({
  item,
  index,
  isMotionReduced,
  isAboveFold = false,
  style,
}: GifTileProps) {
  const [isActive, setIsActive] = useState(false);
  const animated = getRenditionSources(item.images?.fixed_width ?? item.images?.original);
  const still = getRenditionSources(
    (item.images?.fixed_width_still ?? item.images?.original_still) as ContentRendition | undefined,
  );
  const showStill = isMotionReduced && !isActive && still !== null;
  const sources = showStill ? still : animated;
  const isSticker = getItemType(item) !== 'gif';
  const background = isSticker ? undefined : placeholderColors[index % placeholderColors.length];

  return (
    <Link
      to={getItemPath(item)}
      style={{ ...style, backgroundColor: background }}
      className={`block overflow-hidden rounded-md focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-violet-400 ${
        isSticker ? 'bg-zinc-800' : ''
      }`}
      onMouseEnter={() => setIsActive(true)}
      onMouseLeave={() => setIsActive(false)}
      onFocus={() => setIsActive(true)}
      onBlur={() => setIsActive(false)}
      data-testid="gif-tile"
    >
      {sources ? (
        <picture>
          {sources.webp && !showStill && <source type="image/webp" srcSet={sources.webp} />}
          <img
            src={sources.url}
            alt={getAltText(item)}
            width={sources.width || undefined}
            height={sources.height || undefined}
            loading={isAboveFold ? 'eager' : 'lazy'}
            fetchPriority={isAboveFold ? 'high' : 'auto'}
            decoding="async"
            className="block h-full w-full object-cover"
          />
        </picture>
      ) : (
        <span className="sr-only">{getAltText(item)}</span>
      )}
    </Link>
  );
}
