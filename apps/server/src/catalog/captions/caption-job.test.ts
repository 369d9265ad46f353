import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCaptionsSummary } from '../../cli/captions-command.ts';
import { createTestApp } from '../../test-support/app.ts';
import type { TestApp } from '../../test-support/app.ts';
import { makeAnimation } from '../../test-support/uploads.ts';
import { importMedia } from '../import/import-media.ts';
import { gifPlan } from '../starter/gif-plan.ts';
import { starterSizes } from '../starter/plan.ts';
import { renderScene } from '../starter/scenes.ts';
import { countUnreadCaptions, readUnreadCaptions } from './caption-job.ts';

describe('sticky captions: reading what is unread', () => {
  let testApp: TestApp;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    testApp = await createTestApp();
    const deps = { config: testApp.config, database: testApp.database, media: testApp.media };
    const scene = gifPlan.find((entry) => entry.caption === 'Good Boy!')!;
    const inputs = {
      captioned: await renderScene(scene, { ...starterSizes.gif, format: 'gif' }),
      plain: await makeAnimation({ format: 'gif', size: 48 }),
      planned: await makeAnimation({ format: 'gif', size: 40 }),
    };
    for (const [name, bytes] of Object.entries(inputs)) {
      const outcome = await importMedia(deps, {
        bytes,
        fileName: `${name}.gif`,
        metadata: {
          title: name,
          tags: [],
          type: 'gif',
          // As the starter plan gives it: never read.
          ...(name === 'planned' ? { caption: 'From the plan' } : {}),
        },
      });
      if (outcome.status !== 'imported') throw new Error(JSON.stringify(outcome));
      ids[name] = outcome.itemId;
    }
  }, 120_000);
  afterAll(async () => {
    await testApp?.close();
  });

  const captionOf = async (id: string) => {
    const result = await testApp.database.db.execute<{ caption: string }>(
      sql`SELECT caption FROM items WHERE id = ${id}`,
    );
    return result.rows[0]?.caption;
  };

  it('reads each unread item once, resumes after a stop, and leaves the plan’s caption', async () => {
    expect(await countUnreadCaptions(testApp.database)).toBe(2);
    const stop = new AbortController();
    const first = await readUnreadCaptions(
      { database: testApp.database, media: testApp.media },
      { signal: stop.signal, onItemDone: (done) => done === 1 && stop.abort() },
    );
    expect(first.read).toBe(1);
    expect(await countUnreadCaptions(testApp.database)).toBe(1);
    const rest = await readUnreadCaptions({ database: testApp.database, media: testApp.media });
    expect(rest.read).toBe(1);
    expect(await countUnreadCaptions(testApp.database)).toBe(0);

    expect((await captionOf(ids.captioned!))?.toLowerCase()).toMatch(/\bboy\b/);
    expect(await captionOf(ids.plain!)).toBe('');
    expect(await captionOf(ids.planned!)).toBe('From the plan');
    const again = await readUnreadCaptions({ database: testApp.database, media: testApp.media });
    expect(again.read).toBe(0);
    expect(formatCaptionsSummary(again, 0)).toBe('Every item’s text is read; nothing to do.');
    expect(formatCaptionsSummary({ read: 3, withText: 1, cpuMs: [300, 500, 900] }, 2)).toBe(
      'Read the text of 3 items: 1 have some (median 0.50 CPU s an item). 2 left: run it again to go on.',
    );
  }, 120_000);
});
