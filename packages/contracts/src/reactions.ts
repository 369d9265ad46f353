// Kept apart from the zod contract so the home page imports the list alone:
// `@sticky/contracts/reactions` brings no zod into the web app.

export interface Reaction {
  /** What the chip says and searches for. */
  query: string;
  /** Shown beside it: an emoji whose keywords in the server's synonym map name the query. */
  emoji: string;
}

/**
 * The home page's reactions strip (issue 46), each a search. The server's synonym map expands
 * each query (WordNet and the emoji's keywords: docs/catalog.md, "Synonyms and emoji"), and
 * its test checks every chip's emoji is named by its query there.
 */
export const reactions: readonly Reaction[] = [
  { query: 'happy', emoji: '😀' },
  { query: 'sad', emoji: '😢' },
  { query: 'love', emoji: '😍' },
  { query: 'laugh', emoji: '😂' },
  { query: 'angry', emoji: '😠' },
  { query: 'surprised', emoji: '😮' },
  { query: 'yes', emoji: '👍' },
  { query: 'no', emoji: '🙅' },
  { query: 'thank you', emoji: '🙏' },
  { query: 'wow', emoji: '🤩' },
  { query: 'party', emoji: '🥳' },
  { query: 'cry', emoji: '😭' },
  { query: 'hello', emoji: '👋' },
  { query: 'cool', emoji: '😎' },
  { query: 'dance', emoji: '💃' },
  { query: 'tired', emoji: '😴' },
];
