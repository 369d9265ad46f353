export interface LandingFeature {
  id: string;
  title: string;
  text: string;
  image: string;
  alt: string;
}

/** The four feature sections, each with an animated image shipped in public/landing. */
export const landingFeatures: LandingFeature[] = [
  {
    id: 'search',
    title: 'Search trending GIFs',
    text: 'Type a word or browse what is trending right now. GIFs, stickers and animated text, all in one place and one search away.',
    image: '/landing/search.svg',
    alt: 'Animation: a search for “party” fills a grid with colourful GIFs.',
  },
  {
    id: 'favorites',
    title: 'Save your favorites',
    text: 'Tap the heart on anything you love. Your favorites follow you to every device you sign in on.',
    image: '/landing/favorites.svg',
    alt: 'Animation: a heart pops on a GIF and little hearts float up.',
  },
  {
    id: 'share',
    title: 'Share with friends',
    text: 'Copy a link in one click and paste it into any chat, email or post. The perfect reaction, delivered.',
    image: '/landing/share.svg',
    alt: 'Animation: a GIF link is copied and lands in a chat bubble.',
  },
  {
    id: 'download',
    title: 'Download GIFs',
    text: 'Keep a copy in full quality, ready to use anywhere, even offline.',
    image: '/landing/download.svg',
    alt: 'Animation: a GIF drops into a download tray as a progress bar fills.',
  },
];
