import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { creators, items, renditions } from '../../db/schema.ts';
import { createTestApp } from '../../test-support/app.ts';
import type { TestApp } from '../../test-support/app.ts';
import { insertCatalogItems, insertCreator } from '../../test-support/catalog-fixtures.ts';
import { recordStatements } from '../../test-support/database.ts';
import { readItemDocuments, itemDocumentFormat, writeItemDocuments } from './item-documents.ts';
import { refreshItemDocuments, serializeItemsJson } from './item-json.ts';
import { loadItemsByIds } from './items.ts';
import {
  groupByItem,
  readItemsWithCreators,
  readRenditions,
  serializeItem,
  serializeItems,
} from './serialize.ts';

/**
 * Issue 15: a cold page of items read as documents kept in the database (docs/catalog.md,
 * "Item documents"), never one made before a change that has committed since.
 */
describe('item documents', () => {
  let testApp: TestApp;
  let ids: string[];
  const deps = () => testApp.app.deps;

  beforeAll(async () => {
    testApp = await createTestApp({
      PUBLIC_URL: 'https://sticky.example',
      ITEM_DOCUMENTS_PER_TYPE: '2',
    });
    await insertCreator(testApp.database, { username: 'catlover', displayName: 'Cat Lover' });
    ids = await insertCatalogItems(testApp.database, [
      { title: 'Dancing cat', tags: ['cat'], creator: 'catlover', trendScore: 5, hasMp4: true },
      { title: 'Cat nap', type: 'sticker', trendScore: 4 },
      { title: 'Sleepy cat', creator: 'catlover', trendScore: 3 },
      { title: 'Quiet cat', trendScore: 2 },
      { title: 'Old cat', trendScore: 1 },
    ]);
  });
  afterAll(async () => {
    await testApp?.close();
  });
  beforeEach(async () => {
    await testApp.database.db.execute(sql`DELETE FROM item_documents`);
    deps().services.itemJson.clear();
  });

  /** The page as sent when nothing is kept anywhere: serialized from the rows now. */
  const freshJsonOf = async (page: readonly string[]) =>
    JSON.stringify(await serializeItems(deps(), await loadItemsByIds(deps(), page)));
  /** The page as a cold request sends it: memory empty, documents as they are. */
  const coldJsonOf = async (page: readonly string[]) => {
    deps().services.itemJson.clear();
    return (await serializeItemsJson(deps(), page)).json;
  };
  /** Sends the page cold, then waits for its documents to be written. */
  const keepDocumentsOf = async (page: readonly string[]) => {
    await coldJsonOf(page);
    await deps().services.itemDocuments.flush();
  };
  const documentCount = async () => {
    const result = await testApp.database.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM item_documents`,
    );
    return result.rows[0]!.n;
  };

  it('stores each document in its row, compressed, not out of line (migration 0016)', async () => {
    // Text that does not compress: the document stays above 2 KB, where PostgreSQL's default
    // storage would move it out of line.
    const [wordy] = await insertCatalogItems(testApp.database, [
      { title: 'Wordy cat', altText: randomBytes(1_800).toString('base64') },
    ]);
    await keepDocumentsOf([wordy!, ids[0]!]);
    const stored = await testApp.database.db.execute<{
      raw: number;
      stored: number;
      toasted: number;
    }>(sql`
      SELECT min(octet_length(json))::int AS raw, max(pg_column_size(json))::int AS stored,
        (SELECT count(*)::int FROM item_documents d
          WHERE pg_column_toast_chunk_id(d.json) IS NOT NULL) AS toasted
      FROM item_documents`);
    expect(stored.rows[0]!.raw).toBeGreaterThan(4_000);
    expect(stored.rows[0]!.stored).toBeGreaterThan(2_500);
    expect(stored.rows[0]!.toasted).toBe(0);
  });

  it('keeps the documents of a cold page after it is sent, and sends them as the same bytes', async () => {
    const page = [ids[1]!, ids[0]!, ids[2]!];
    const fresh = await freshJsonOf(page);
    expect(await coldJsonOf(page)).toBe(fresh);
    await deps().services.itemDocuments.flush();
    expect(await documentCount()).toBe(3);

    const sent = await recordStatements(testApp.database, async () => {
      expect(await coldJsonOf(page)).toBe(fresh);
    });
    expect(sent.filter(({ text }) => /\bFROM (items|renditions)\b/.test(text))).toEqual([]);
  });

  const changes: Array<[what: string, change: () => Promise<unknown>]> = [
    [
      'a title edited',
      () =>
        testApp.database.db
          .update(items)
          .set({ title: 'Dancing cat, edited' })
          .where(eq(items.id, ids[0]!)),
    ],
    [
      'a rendition added (a video made after import)',
      () =>
        testApp.database.db.insert(renditions).values({
          itemId: ids[2]!,
          name: 'fixed_width',
          format: 'mp4',
          width: 200,
          height: 150,
          frames: 10,
          bytes: 1234,
          path: `${ids[2]!.slice(0, 2)}/${ids[2]}/fixed_width.mp4`,
        }),
    ],
    [
      'a rendition removed',
      () =>
        testApp.database.db
          .delete(renditions)
          .where(sql`${renditions.itemId} = ${ids[0]!} AND ${renditions.format} = 'mp4'`),
    ],
    [
      "the creator's name changed",
      () =>
        testApp.database.db
          .update(creators)
          .set({ displayName: 'Cat Lover, renamed' })
          .where(eq(creators.username, 'catlover')),
    ],
    [
      'the item started trending (its first view)',
      () =>
        testApp.database.db
          .update(items)
          .set({ trendingAt: new Date(Date.UTC(2026, 0, 1)) })
          .where(eq(items.id, ids[2]!)),
    ],
  ];

  it.each(changes)('sends no stale document after %s', async (_what, change) => {
    const page = [ids[0]!, ids[2]!];
    await keepDocumentsOf(page);
    const before = await coldJsonOf(page);
    await change();
    const fresh = await freshJsonOf(page);
    expect(fresh).not.toBe(before);
    expect(await coldJsonOf(page)).toBe(fresh);
    // And the document made again from the change is the new one.
    await deps().services.itemDocuments.flush();
    expect(await coldJsonOf(page)).toBe(fresh);
  });

  it('sends a hidden item from no document, and its document again once it is shown', async () => {
    const page = [ids[0]!, ids[3]!];
    await keepDocumentsOf(page);
    await testApp.database.db
      .update(items)
      .set({ hiddenAt: new Date() })
      .where(eq(items.id, ids[3]!));
    expect(JSON.parse(await coldJsonOf(page))).toHaveLength(1);
    await testApp.database.db.update(items).set({ hiddenAt: null }).where(eq(items.id, ids[3]!));
    expect(await coldJsonOf(page)).toBe(await freshJsonOf(page));
  });

  it('never writes a document made from rows read before a change that committed since', async () => {
    const [read] = await readItemsWithCreators(deps(), [ids[0]!]);
    const renditionRows = groupByItem(await readRenditions(deps(), [ids[0]!]));
    const item = serializeItem(
      testApp.config,
      read!.item,
      renditionRows.get(ids[0]!)!,
      read!.creator,
    );
    await testApp.database.db
      .update(items)
      .set({ tags: ['cat', 'edited'] })
      .where(eq(items.id, ids[0]!));
    const written = await writeItemDocuments(
      testApp.database,
      testApp.config,
      deps().services.itemDocuments.format,
      [{ ...read!, renditions: renditionRows.get(ids[0]!)!, json: JSON.stringify(item) }],
    );
    expect(written).toBe(0);
    expect(await documentCount()).toBe(0);
    expect(await coldJsonOf([ids[0]!])).toBe(await freshJsonOf([ids[0]!]));
  });

  it('fills in the URLs of the config that reads them: PUBLIC_URL and MEDIA_PUBLIC_URL may change', async () => {
    const page = [ids[0]!, ids[1]!];
    await keepDocumentsOf(page);
    const moved = {
      ...testApp.config,
      publicUrl: 'https://gifs.example.org/sticky',
      mediaPublicUrl: 'https://cdn.example.net/m',
    };
    const kept = await readItemDocuments(
      testApp.database,
      moved,
      deps().services.itemDocuments.format,
      page,
    );
    const expected = await serializeItems(
      { ...deps(), config: moved },
      await loadItemsByIds(deps(), page),
    );
    expect(kept.size).toBe(2);
    expect(page.map((id) => JSON.parse(kept.get(id)!))).toEqual(expected);
    expect(kept.get(ids[0]!)).toContain('https://cdn.example.net/m/');
    expect(kept.get(ids[0]!)).not.toContain('sticky.example');
  });

  it('keeps no document for an item whose own text looks like a placeholder, and sends it right', async () => {
    const [odd, escaped] = await insertCatalogItems(testApp.database, [
      { title: 'Control \u0002 and \u0003 characters' },
      { title: 'A backslash-u0002: \\u0002 written out' },
    ]);
    const page = [odd!, escaped!];
    const fresh = await freshJsonOf(page);
    await keepDocumentsOf(page);
    expect(await documentCount()).toBe(0);
    expect(await coldJsonOf(page)).toBe(fresh);
    expect(JSON.parse(fresh)[1].title).toBe('A backslash-u0002: \\u0002 written out');
  });

  it('reads no document of another format (a serializer changed since), and has one format whatever the URLs', async () => {
    const format = deps().services.itemDocuments.format;
    expect(itemDocumentFormat({ ...testApp.config, publicUrl: 'https://other.example' })).toBe(
      format,
    );
    await keepDocumentsOf([ids[0]!]);
    await testApp.database.db.execute(sql`UPDATE item_documents SET format = 'older'`);
    const readKept = () => readItemDocuments(testApp.database, testApp.config, format, [ids[0]!]);
    expect((await readKept()).size).toBe(0);
    expect(await coldJsonOf([ids[0]!])).toBe(await freshJsonOf([ids[0]!]));
    // Made again, in this format, from the page just sent.
    await deps().services.itemDocuments.flush();
    expect((await readKept()).size).toBe(1);
  });

  it('keeps the documents of the most popular items of each type, and only those', async () => {
    // Documents of unpopular items written back after a cold page, and one of an old format.
    await keepDocumentsOf([ids[3]!, ids[4]!]);
    expect(await documentCount()).toBe(2);
    // ITEM_DOCUMENTS_PER_TYPE=2 in this app.
    const refreshed = await refreshItemDocuments(deps());
    // gifs: Dancing cat (5) and Sleepy cat (3); stickers: Cat nap; plus the odd titles' items
    // inserted above have no trend score and rank below.
    expect(refreshed).toEqual({ removed: 2, made: 3 });
    const kept = await testApp.database.db.execute<{ id: string }>(
      sql`SELECT item_id AS id FROM item_documents ORDER BY item_id`,
    );
    expect(kept.rows.map((row) => row.id).sort()).toEqual([ids[0]!, ids[1]!, ids[2]!].sort());
    expect(await refreshItemDocuments(deps())).toEqual({
      removed: 0,
      made: 0,
    });
    const off = { ...deps(), config: { ...testApp.config, itemDocumentsPerType: 0 } };
    expect(await refreshItemDocuments(off)).toEqual({
      removed: 3,
      made: 0,
    });
  });

  it('reads and writes none with ITEM_DOCUMENTS_PER_TYPE=0', async () => {
    const off = await createTestApp({ ITEM_DOCUMENTS_PER_TYPE: '0' });
    try {
      const [id] = await insertCatalogItems(off.database, [{ title: 'Plain cat' }]);
      const sent = await recordStatements(off.database, async () => {
        await serializeItemsJson(off.app.deps, [id!]);
        await off.app.deps.services.itemDocuments.flush();
      });
      expect(sent.filter(({ text }) => /\bitem_documents\b/.test(text))).toEqual([]);
    } finally {
      await off.close();
    }
  });
});
