import type { ImgHTMLAttributes } from 'react';
import type { ImageSources } from '../content-item.ts';

type RenditionPictureProps = {
  sources: ImageSources;
  alt: string;
  /** A still shows the GIF's first frame only: the animated WebP source is left out. */
  isStill: boolean;
} & Omit<ImgHTMLAttributes<HTMLImageElement>, 'src' | 'alt'>;

/**
 * A rendition as an image: animated WebP where the browser takes it, the GIF (or still)
 * otherwise (docs/web.md, "Media"). The grid's tiles and the item page differ only in the
 * `<img>` attributes they pass.
 */
export function RenditionPicture({ sources, alt, isStill, ...imgProps }: RenditionPictureProps) {
  return (
    <picture>
      {sources.webp && !isStill && <source type="image/webp" srcSet={sources.webp} />}
      <img src={sources.url} alt={alt} {...imgProps} />
    </picture>
  );
}
