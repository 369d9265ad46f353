import type { LoadResult } from '../lib/load.ts';
import { runLoad } from '../lib/load.ts';
import { createTokenHolder } from '../lib/people.ts';
import { benchApiKey } from '../lib/server.ts';
import type { BenchServer } from '../lib/server.ts';
import { syntheticItemId } from './synthetic-catalog.ts';

/** What one person's edits did while the mix ran. */
export interface EditsSent {
  /** PATCH /api/items/{id} sent, twice a second. */
  sent: number;
  /** Answered 200 (each moves what the item's edit changes). */
  accepted: number;
  /** Answered 429 (past the per-person limit on edits, docs/security.md). */
  refused: number;
}

/** The `/v2` search mix at c=32, quiet and while one person edits their own item. */
export interface SearchUnderEdits {
  mix: string;
  quiet: LoadResult;
  editing: LoadResult;
  edits: EditsSent;
}

/** `/v1` search paths of the bench mix as Tenor's `/v2/search` asks the same words. */
export function toTenorSearchPaths(v1Paths: readonly string[]): string[] {
  return v1Paths.map((v1) => {
    const q = new URL(v1, 'http://bench').searchParams.get('q') ?? '';
    return `/v2/search?key=${benchApiKey}&q=${encodeURIComponent(q)}&limit=25&contentfilter=medium`;
  });
}

/** A person with an API token that may edit, who owns one item of the synthetic catalog. */
async function createEditor(server: BenchServer, itemNumber: number) {
  const { userId, secret } = await createTokenHolder(server, { scopes: ['upload', 'items'] });
  const itemId = syntheticItemId(itemNumber);
  await server.database.pool.query('UPDATE items SET owner_id = $1 WHERE id = $2', [
    userId,
    itemId,
  ]);
  return { secret, itemId };
}

/**
 * The repeating `/v2` search mix at 32 connections, first quiet, then while one person edits
 * the title of their own item twice a second: what an edit does to the kept answers
 * (docs/catalog.md, "Caches and versions"). Works on a baseline's server too (same tables).
 */
export async function measureSearchUnderEdits(
  server: BenchServer,
  paths: readonly string[],
  options: { durationSeconds: number; warmupSeconds: number; itemNumber: number },
): Promise<SearchUnderEdits> {
  const quiet = await runLoad({
    url: server.url,
    paths,
    connections: 32,
    durationSeconds: options.durationSeconds,
    warmupSeconds: options.warmupSeconds,
  });
  const editor = await createEditor(server, options.itemNumber);
  const edits: EditsSent = { sent: 0, accepted: 0, refused: 0 };
  const otherStatuses = new Set<number>();
  let isEditing = true;
  const editing = (async () => {
    while (isEditing) {
      const started = performance.now();
      edits.sent += 1;
      const response = await fetch(`${server.url}/api/items/${editor.itemId}`, {
        method: 'PATCH',
        headers: {
          authorization: `Bearer ${editor.secret}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ title: `Edited by its owner ${edits.sent}` }),
      });
      await response.arrayBuffer();
      if (response.status === 200) edits.accepted += 1;
      else if (response.status === 429) edits.refused += 1;
      else otherStatuses.add(response.status);
      // Twice a second, whatever an edit took.
      const left = 500 - (performance.now() - started);
      if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
    }
  })();
  let loaded: LoadResult;
  try {
    loaded = await runLoad({
      url: server.url,
      paths,
      connections: 32,
      durationSeconds: options.durationSeconds,
    });
  } finally {
    isEditing = false;
    await editing;
  }
  // A figure "while editing" with no edit taken would measure a quiet server twice.
  if (edits.accepted === 0) {
    throw new Error(
      `no edit went through (${edits.sent} sent; answers ${[...otherStatuses].join(', ') || 'none'})`,
    );
  }
  return { mix: `${paths.length} /v2 searches, limit 25`, quiet, editing: loaded, edits };
}
