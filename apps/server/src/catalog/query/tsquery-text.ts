/**
 * A lexeme as tsquery text: quoted, its quotes and backslashes escaped, so no word is read as
 * an operator (`'don''t'`, `'a\\b'`).
 */
export const quoteLexeme = (term: string) => `'${term.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
