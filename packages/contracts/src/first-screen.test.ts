import { describe, expect, it } from 'vitest';
import { clientConfigSchema } from './api.ts';
import { meResponseSchema } from './auth.ts';
import { clientConfigFirstScreenSchema, meResponseFirstScreenSchema } from './first-screen.ts';

const user = { id: 'u1', name: 'Ada', email: 'ada@example.com', picture: null };

const meAnswers: unknown[] = [
  { success: true, user },
  { success: true, user: { ...user, picture: 'https://example.com/a.png', extra: 1 } },
  { success: false, user: null },
  { success: false, user },
  { success: true, user: null },
  { success: true, user: { ...user, name: 1 } },
  { success: true, user: { ...user, picture: undefined } },
  { success: 'yes', user },
  { user },
  null,
  [],
  'ok',
];

const configAnswers: unknown[] = [
  { source: 'local', apiKey: 'k', analyticsScriptUrl: null },
  { source: 'local', apiKey: 'k', analyticsScriptUrl: 'https://a.example/s.js', apiUrl: 'x' },
  { source: 'giphy', apiKey: 'k', apiUrl: 'https://api.giphy.com/v1', analyticsScriptUrl: null },
  { source: 'giphy', apiKey: 'k', analyticsScriptUrl: null },
  { source: 'other', apiKey: 'k', analyticsScriptUrl: null },
  { source: 'local', apiKey: 1, analyticsScriptUrl: null },
  { source: 'local', apiKey: 'k' },
  null,
];

describe('first-screen checkers agree with the zod contract', () => {
  it.each(meAnswers.map((answer) => [JSON.stringify(answer), answer]))(
    'me answer %s',
    (_label, answer) => {
      const expected = meResponseSchema.safeParse(answer);
      const actual = meResponseFirstScreenSchema.safeParse(answer);
      expect(actual.success).toBe(expected.success);
      if (actual.success && expected.success) expect(actual.data).toEqual(expected.data);
    },
  );

  it.each(configAnswers.map((answer) => [JSON.stringify(answer), answer]))(
    'config answer %s',
    (_label, answer) => {
      const expected = clientConfigSchema.safeParse(answer);
      const actual = clientConfigFirstScreenSchema.safeParse(answer);
      expect(actual.success).toBe(expected.success);
      if (actual.success && expected.success) expect(actual.data).toEqual(expected.data);
    },
  );
});
