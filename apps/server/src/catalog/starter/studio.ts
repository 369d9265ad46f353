import { Resvg } from '@resvg/resvg-js';
import { findEmojiArtByName } from '../text/emoji-art.ts';
import { emojiDef } from '../text/svg.ts';

/** The SVG of Sticky Studio's avatar: a sticker-like star on a gradient tile. */
export function studioAvatarSvg(size = 128): string {
  const star = findEmojiArtByName('star-struck');
  if (!star) throw new Error('Noto emoji art for the avatar is missing');
  return `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${size}" height="${size}" viewBox="0 0 128 128"><defs><linearGradient id="tile" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#ff4d6d"/><stop offset="0.5" stop-color="#c77dff"/><stop offset="1" stop-color="#4cc9f0"/></linearGradient>${emojiDef('star', star, 84)}</defs><rect width="128" height="128" rx="28" fill="url(#tile)"/><circle cx="64" cy="64" r="48" fill="#fff" opacity="0.9"/><use href="#star" transform="translate(64 64) rotate(-8)"/></svg>`;
}

let avatarDataUrl: string | undefined;

/**
 * A PNG data URL: the avatar travels with the creator row, so it works on any origin and with
 * no file to serve (the Content-Security-Policy allows `data:` images).
 */
export function studioAvatarUrl(): string {
  avatarDataUrl ??= `data:image/png;base64,${new Resvg(studioAvatarSvg(96), {
    font: { loadSystemFonts: false },
  })
    .render()
    .asPng()
    .toString('base64')}`;
  return avatarDataUrl;
}

/** The creator of every starter item. */
export function studioCreator() {
  return {
    username: 'stickystudio',
    displayName: 'Sticky Studio',
    avatarUrl: studioAvatarUrl(),
    description:
      'Stickers, GIFs and animated text made for Sticky from open-licence art: Noto Emoji (Apache-2.0) and fonts from Google Fonts (SIL Open Font License and Apache-2.0). See the credits page.',
    isVerified: true,
  };
}
