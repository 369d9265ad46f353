import { afterEach, describe, expect, it, vi } from 'vitest';
import { detectMediaSupport } from './media-support.ts';

describe('detectMediaSupport', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const browser = (vendor: string, playable: string[]) => {
    vi.spyOn(navigator, 'vendor', 'get').mockReturnValue(vendor);
    vi.spyOn(HTMLMediaElement.prototype, 'canPlayType').mockImplementation((type: string) =>
      playable.some((prefix) => type.startsWith(prefix)) ? 'probably' : '',
    );
  };

  it('plays MP4 and WebM (with alpha) where the browser says it plays them', () => {
    browser('Google Inc.', ['video/mp4', 'video/webm']);
    expect(detectMediaSupport()).toEqual({
      canPlayMp4: true,
      canPlayWebm: true,
      canPlayAlphaWebm: true,
    });
    vi.restoreAllMocks();
    browser('', ['video/webm']);
    expect(detectMediaSupport()).toEqual({
      canPlayMp4: false,
      canPlayWebm: true,
      canPlayAlphaWebm: true,
    });
    vi.restoreAllMocks();
    browser('Google Inc.', ['video/mp4']);
    expect(detectMediaSupport()).toEqual({
      canPlayMp4: true,
      canPlayWebm: false,
      canPlayAlphaWebm: false,
    });
  });

  it('never takes WebKit’s word for WebM: it shows a transparent sticker on black', () => {
    browser('Apple Computer, Inc.', ['video/mp4', 'video/webm']);
    expect(detectMediaSupport()).toEqual({
      canPlayMp4: true,
      canPlayWebm: false,
      canPlayAlphaWebm: false,
    });
  });

  it('asks for the codecs, not only the container', () => {
    vi.spyOn(navigator, 'vendor', 'get').mockReturnValue('Google Inc.');
    const canPlayType = vi.fn((): CanPlayTypeResult => '');
    vi.spyOn(HTMLMediaElement.prototype, 'canPlayType').mockImplementation(canPlayType);
    detectMediaSupport();
    expect(canPlayType).toHaveBeenCalledWith('video/mp4; codecs="avc1.42E01E"');
    expect(canPlayType).toHaveBeenCalledWith('video/webm; codecs="vp9"');
  });
});
