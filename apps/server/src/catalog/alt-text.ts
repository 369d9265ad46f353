/** Item-type nouns for alt text; read by import and by catalog/query (the alt text /v1 answers). */
const typeNouns = {
  gif: { animated: 'Animated GIF', still: 'Image' },
  sticker: { animated: 'Animated sticker', still: 'Sticker' },
  text: { animated: 'Animated text', still: 'Text' },
} as const;

/** A one-sentence description for screen readers when the metadata gives none. */
export function buildDefaultAltText(
  title: string,
  type: keyof typeof typeNouns,
  isAnimated: boolean,
): string {
  const noun = typeNouns[type][isAnimated ? 'animated' : 'still'];
  const cleanTitle = title.trim();
  if (type === 'text') return `${noun} that reads “${cleanTitle}”.`;
  if (!cleanTitle) return `${noun}.`;
  return `${noun}: ${cleanTitle}${/[.!?…]$/.test(cleanTitle) ? '' : '.'}`;
}
