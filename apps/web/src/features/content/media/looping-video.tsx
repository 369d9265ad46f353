import { useEffect, useEffectEvent, useRef } from 'react';
import type { CSSProperties } from 'react';

interface LoopingVideoProps {
  src: string;
  poster: string | undefined;
  /** The accessible name: the video itself is decoration inside a labelled image. */
  label: string;
  width: number | undefined;
  height: number | undefined;
  /** Plays while true, pauses (keeping its frame) while false. */
  isPlaying: boolean;
  /** Classes of the labelled box around the video. */
  wrapperClassName?: string;
  /** Classes and style of the video element. */
  className?: string;
  style?: CSSProperties;
  /** The video cannot play (no such file, a format the browser refuses). */
  onError: () => void;
  /** The browser will not play it unasked (iOS in Low Power Mode): it stays on its poster. */
  onPlayRefused?: () => void;
}

/**
 * A GIF as video (docs/web.md, "Media"): muted, looping, inline, no controls, over its poster
 * when it has one. It is an image to assistive technology (`role="img"` with the item's alt
 * text) and loads nothing but its poster before it is asked to play. Unmounting releases its
 * decoder: removing `src` alone keeps the loaded media, `load()` after it drops it.
 */
export function LoopingVideo({
  src,
  poster,
  label,
  width,
  height,
  isPlaying,
  wrapperClassName,
  className,
  style,
  onError,
  onPlayRefused,
}: LoopingVideoProps) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const onRefused = useEffectEvent(() => onPlayRefused?.());

  // The source is set here rather than as an attribute, so that the release below (on
  // unmount, or before another source) cannot be undone or outrun by a render.
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    video.src = src;
    return () => {
      video.pause();
      video.removeAttribute('src');
      video.load();
    };
  }, [src]);

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    if (!isPlaying) {
      video.pause();
      return;
    }
    // Starting a video (its loading and its decoder) is the costliest DOM work of a grid's
    // first screen, which starts a dozen at once: each starts in a task of its own, so the
    // page answers input between them (docs/web.md, "First page").
    const start = setTimeout(() => {
      video.preload = 'auto';
      // Browsers let a muted video play without a gesture; the property, not only the attribute.
      video.muted = true;
      // A play() cut short by a pause() or an unmount rejects too: nothing to do about that.
      void video.play()?.catch((error: unknown) => {
        if (error instanceof DOMException && error.name === 'NotAllowedError') onRefused();
      });
    });
    return () => clearTimeout(start);
  }, [isPlaying, src]);

  return (
    <span role="img" aria-label={label} className={wrapperClassName}>
      <video
        ref={videoRef}
        poster={poster}
        width={width}
        height={height}
        muted
        loop
        playsInline
        disablePictureInPicture
        disableRemotePlayback
        preload="none"
        aria-hidden="true"
        tabIndex={-1}
        className={className}
        style={style}
        onError={onError}
      />
    </span>
  );
}
