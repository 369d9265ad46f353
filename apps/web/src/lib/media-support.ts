/** Which video formats the browser plays, found once by the screen that shows media. */
export interface MediaSupport {
  /** H.264 in MP4, as GIPHY's and our `mp4` renditions are. */
  canPlayMp4: boolean;
  /** VP9 WebM, as a GIF's grid tile has beside its MP4 (about half its bytes). */
  canPlayWebm: boolean;
  /** WebM (VP9) with its alpha channel, as our stickers' `webm` renditions are. */
  canPlayAlphaWebm: boolean;
}

/**
 * Asks a video element. WebKit (Safari, and every browser on iOS) decodes VP9 WebM but drops
 * its alpha channel, drawing a transparent sticker on black, and its `canPlayType` cannot say
 * so: it is told apart by its vendor string. It is kept to MP4 for GIFs too: H.264 is what its
 * devices decode in hardware, VP9 in software where at all.
 */
export function detectMediaSupport(): MediaSupport {
  if (typeof document === 'undefined') {
    return { canPlayMp4: false, canPlayWebm: false, canPlayAlphaWebm: false };
  }
  const video = document.createElement('video');
  const canPlay = (type: string) =>
    typeof video.canPlayType === 'function' && video.canPlayType(type) !== '';
  const isWebKit = /apple/i.test(navigator.vendor ?? '');
  const canPlayVp9 = !isWebKit && canPlay('video/webm; codecs="vp9"');
  return {
    canPlayMp4: canPlay('video/mp4; codecs="avc1.42E01E"'),
    canPlayWebm: canPlayVp9,
    canPlayAlphaWebm: canPlayVp9,
  };
}
