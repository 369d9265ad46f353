import { describe, expect, it } from 'vitest';
import { clientConfigSchema } from './api.ts';
import { meResponseSchema } from './auth.ts';
import { ownedItemResponseSchema } from './uploads.ts';
import {
  favoriteWriteResponseSchema,
  favoritesResponseSchema,
  mergeFavoritesResponseSchema,
} from './favorites.ts';
import {
  clientConfigFirstScreenSchema,
  favoriteWriteResponseFirstScreenSchema,
  favoritesResponseFirstScreenSchema,
  itemRightsFirstScreenSchema,
  meResponseFirstScreenSchema,
  mergeFavoritesResponseFirstScreenSchema,
} from './first-screen.ts';

const user = {
  id: 'u1',
  name: 'Ada',
  email: 'ada@example.com',
  picture: null,
  isAdmin: false,
  canUpload: true,
};

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
  { source: 'local', apiKey: 'k', analyticsScriptUrl: null, publicLinks: true },
  { source: 'local', apiKey: 'k', analyticsScriptUrl: null, publicLinks: 'yes' },
  { source: 'local', apiKey: 'k', analyticsScriptUrl: null, canBecomeAdminLocally: true },
  { source: 'local', apiKey: 'k', analyticsScriptUrl: null, canBecomeAdminLocally: 1 },
  { source: 'giphy', apiKey: 'k', apiUrl: 'u', analyticsScriptUrl: null, publicLinks: 'yes' },
  null,
];

const favoritesAnswers: unknown[] = [
  { success: true, ids: [] },
  { success: true, ids: ['abc', 'A-b_9'], extra: 1 },
  { success: true, ids: ['abc'], merged: true },
  { success: true, ids: ['abc'], merged: false },
  { success: true, ids: ['abc'], merged: 'yes' },
  { success: true, ids: ['bad id'] },
  { success: true, ids: ['x'.repeat(65)] },
  { success: true, ids: [''] },
  { success: true, ids: [1] },
  { success: true, ids: 'abc' },
  { success: false, ids: [] },
  { success: true, id: 'abc', isFavorite: true },
  { success: true, id: 'abc', isFavorite: false, ids: [] },
  { success: true, id: 'a b', isFavorite: true },
  { success: true, id: 'abc', isFavorite: 'no' },
  { success: true, id: 'abc' },
  null,
  [],
];

describe('first-screen checkers agree with the zod contract', () => {
  const agree = (
    schema: { safeParse: (value: unknown) => { success: boolean; data?: unknown } },
    checker: { safeParse: (value: unknown) => { success: boolean; data?: unknown } },
  ) => {
    for (const answer of favoritesAnswers) {
      const expected = schema.safeParse(answer);
      const actual = checker.safeParse(answer);
      expect(actual.success, JSON.stringify(answer)).toBe(expected.success);
      if (actual.success && expected.success) expect(actual.data).toEqual(expected.data);
    }
  };
  it('favourites answers', () => {
    agree(favoritesResponseSchema, favoritesResponseFirstScreenSchema);
  });
  it('merge answers', () => {
    agree(mergeFavoritesResponseSchema, mergeFavoritesResponseFirstScreenSchema);
  });
  it('favourite write answers', () => {
    agree(favoriteWriteResponseSchema, favoriteWriteResponseFirstScreenSchema);
  });

  it('reads the rights of every answer GET /api/items/{id} may give, as zod reads them', () => {
    const details = {
      title: 'Cat',
      tags: ['cat'],
      type: 'gif',
      category: null,
      rating: 'g',
      sourceUrl: '',
      altText: 'A cat.',
      caption: '',
      itemUrl: 'https://sticky.test/gif/cat-abc',
      previewUrl: 'https://sticky.test/media/a.webp',
      previewStillUrl: 'https://sticky.test/media/a.gif',
      width: 200,
      height: 100,
    };
    const item = {
      id: 'abc',
      details,
      visibility: 'public',
      isHidden: false,
      owner: null,
      canEdit: true,
      canDelete: true,
      canHide: false,
    };
    const answers: unknown[] = [
      { success: true, item },
      { success: true, item: { ...item, canEdit: false, canDelete: false } },
      {
        success: true,
        item: {
          ...item,
          visibility: 'private',
          isHidden: true,
          owner: { id: 'u1', name: 'Ada', email: 'ada@example.com' },
        },
      },
      { success: true, item: { ...item, canHide: 'no' } },
      { success: true, item: { ...item, canEdit: undefined } },
      { success: false, item },
      { success: true },
      null,
    ];
    for (const answer of answers) {
      const expected = ownedItemResponseSchema.safeParse(answer);
      const actual = itemRightsFirstScreenSchema.safeParse(answer);
      if (expected.success) {
        const { canEdit, canDelete, canHide, visibility, isHidden, owner } = expected.data.item;
        expect(actual, JSON.stringify(answer)).toEqual({
          success: true,
          data: { canEdit, canDelete, canHide, visibility, isHidden, ownerId: owner?.id ?? null },
        });
      } else {
        const rights = (answer as { item?: Record<string, unknown> } | null)?.item;
        const hasRights = ['canEdit', 'canDelete', 'canHide'].every(
          (name) => typeof rights?.[name] === 'boolean',
        );
        // Only the rights are read: an answer zod refuses elsewhere still has them.
        expect(actual.success, JSON.stringify(answer)).toBe(
          hasRights && (answer as { success?: unknown }).success === true,
        );
      }
    }
    expect(ownedItemResponseSchema.safeParse(answers[0]).success).toBe(true);
  });

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
