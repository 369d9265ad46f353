import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { creditSchema, credits, findCredit } from './credits.ts';

const readme = fs.readFileSync(
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../README.md'),
  'utf8',
);

describe('credits', () => {
  it('names every asset set once, with its author, licence and origin', () => {
    expect(credits.length).toBeGreaterThanOrEqual(5);
    expect(new Set(credits.map((credit) => credit.name)).size).toBe(credits.length);
    for (const credit of credits) {
      creditSchema.parse(credit);
      for (const value of Object.values(credit)) expect(value.trim(), credit.name).not.toBe('');
      expect(credit.sourceUrl).toMatch(/^https:\/\//);
      expect(credit.licenseUrl).toMatch(/^https:\/\//);
    }
    expect(findCredit('Noto Emoji').license).toBe('Apache-2.0');
    expect(() => findCredit('Comic Sans')).toThrow();
  });

  it('are listed in the README with the same licence', () => {
    const section = readme.slice(readme.indexOf('## Credits'));
    expect(section.startsWith('## Credits')).toBe(true);
    for (const credit of credits) {
      const row = section.split('\n').find((line) => line.includes(`[${credit.name}](`));
      expect(row, credit.name).toBeDefined();
      expect(row).toContain(credit.license);
      expect(row).toContain(credit.sourceUrl);
    }
  });
});
