/** The avatar's letter: the name's first character when it is a letter or digit, else null. */
export function getUserInitial(name: string): string | null {
  const first = Array.from(name.trim())[0];
  return first && /[\p{L}\p{N}]/u.test(first) ? first.toLocaleUpperCase() : null;
}
