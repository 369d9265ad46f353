/**
 * Sticky Studio's avatar: a white star on a gradient tile. It is a data URL, so it works on any
 * origin with no file to serve (the Content-Security-Policy allows `data:` images), and small,
 * because every serialised item repeats its creator's avatar.
 */
export const studioAvatarSvg =
  "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 64 64'><defs><linearGradient id='g' x2='1' y2='1'><stop stop-color='#ff4d6d'/><stop offset='.5' stop-color='#c77dff'/><stop offset='1' stop-color='#4cc9f0'/></linearGradient></defs><rect width='64' height='64' rx='14' fill='url(#g)'/><path d='M32 11l6.2 12.6 13.8 2-10 9.8 2.4 13.8L32 42.7l-12.4 6.5 2.4-13.8-10-9.8 13.8-2z' fill='#fff'/></svg>";

export function studioAvatarUrl(): string {
  return `data:image/svg+xml,${studioAvatarSvg.replace(/[<>#%]/g, (char) => encodeURIComponent(char))}`;
}

/** The creator of every starter item and every on-demand text rendering. */
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
