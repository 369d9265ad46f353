/** Items of all pages in order, each id once (GIPHY can repeat an item across pages). */
export function uniqueById<T extends { id: string | number }>(items: readonly T[]): T[] {
  const seen = new Set<string>();
  const unique: T[] = [];
  for (const item of items) {
    const id = String(item.id);
    if (seen.has(id)) continue;
    seen.add(id);
    unique.push(item);
  }
  return unique;
}
