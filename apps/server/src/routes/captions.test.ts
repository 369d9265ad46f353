import type { GiphyItem } from '@sticky/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gifPlan } from '../catalog/starter/gif-plan.ts';
import { starterSizes } from '../catalog/starter/plan.ts';
import { renderScene } from '../catalog/starter/scenes.ts';
import { createTestApp } from '../test-support/app.ts';
import type { TestApp } from '../test-support/app.ts';
import { signInAs } from '../test-support/sign-in.ts';
import {
  makeAnimation,
  postUploads,
  sameSiteHeaders,
  waitForUploads,
} from '../test-support/uploads.ts';

const apiKey = 'captions-test-key-0123456789abcdefghijk';

describe('captions: the words inside an upload', () => {
  let testApp: TestApp;
  let owner: Record<string, string>;

  beforeAll(async () => {
    testApp = await createTestApp(
      { STICKY_API_KEYS: apiKey },
      { hasJobs: true, hasCaptions: true },
    );
    owner = sameSiteHeaders(testApp, (await signInAs(testApp, { name: 'Owner' })).cookie);
  });
  afterAll(async () => {
    await testApp?.close();
  });

  async function upload(title: string, bytes: Buffer): Promise<string> {
    const response = await postUploads(testApp, owner, [{ name: `${title}.gif`, bytes }], {
      title,
      tags: 'clip',
    });
    expect(response.statusCode).toBe(202);
    const uploads = await waitForUploads(testApp, owner);
    const done = uploads.find((entry) => entry.details.title === title)!;
    expect(done.state).toBe('ready');
    return done.itemId!;
  }

  /** The item's caption once the later-tier job has read it. */
  async function waitForCaption(id: string): Promise<string> {
    for (let tries = 0; tries < 600; tries++) {
      const result = await testApp.database.db.execute<{ caption: string; read: boolean }>(
        sql`SELECT caption, caption_read_at IS NOT NULL AS read FROM items WHERE id = ${id}`,
      );
      const row = result.rows[0];
      if (row?.read) return row.caption;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`the caption of ${id} was never read`);
  }

  const v1Ids = async (q: string) => {
    const response = await testApp.app.inject({
      url: `/v1/gifs/search?q=${encodeURIComponent(q)}&api_key=${apiKey}`,
    });
    expect(response.statusCode).toBe(200);
    return (response.json() as { data: GiphyItem[] }).data.map((item) => item.id);
  };
  const v2Results = async (q: string) => {
    const response = await testApp.app.inject({
      url: `/v2/search?q=${encodeURIComponent(q)}&key=${apiKey}`,
    });
    expect(response.statusCode).toBe(200);
    return (response.json() as { results: Array<{ id: string; content_description: string }> })
      .results;
  };
  const v1Item = async (id: string) => {
    const response = await testApp.app.inject({ url: `/v1/gifs/${id}?api_key=${apiKey}` });
    expect(response.statusCode).toBe(200);
    return (response.json() as { data: GiphyItem }).data;
  };

  it('reads a GIF’s caption and finds it by a word found nowhere else, in /v1 and /v2', async () => {
    const scene = gifPlan.find((entry) => entry.caption === 'Mind Blown')!;
    const bytes = await renderScene(scene, { ...starterSizes.gif, format: 'gif' });
    const id = await upload('clip 0042', bytes);
    // Ready came before the read: the item is listed with no caption yet, or already read.
    const caption = await waitForCaption(id);
    expect(caption.toLowerCase()).toContain('blown');

    expect(await v1Ids('blown')).toContain(id);
    const v2 = await v2Results('blown');
    expect(v2.map((result) => result.id)).toContain(id);
    expect(v2.find((result) => result.id === id)!.content_description).toContain(caption);

    const item = await v1Item(id);
    expect(item.caption).toBe(caption);
    // No alt text of its own: the one people hear is the title's, then the caption.
    expect(item.alt_text).toBe(`Animated GIF: clip 0042. “${caption}”`);

    // An edit replaces the words: found by the new one, no longer by the old.
    const edited = await testApp.app.inject({
      method: 'PATCH',
      url: `/api/items/${id}`,
      headers: { ...owner, 'content-type': 'application/json' },
      payload: JSON.stringify({ caption: 'platypus parade' }),
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().item.details.caption).toBe('platypus parade');
    expect(await v1Ids('platypus')).toContain(id);
    expect((await v2Results('platypus')).map((result) => result.id)).toContain(id);
    expect(await v1Ids('blown')).not.toContain(id);
    expect((await v1Item(id)).alt_text).toContain('platypus parade');
  }, 240_000);

  it('gives an upload without text an empty caption', async () => {
    const id = await upload('plain colours', await makeAnimation({ format: 'gif', size: 64 }));
    expect(await waitForCaption(id)).toBe('');
    const item = await v1Item(id);
    expect(item.caption).toBe('');
    expect(item.alt_text).toBe('Animated GIF: plain colours.');
  }, 240_000);

  it('refuses a caption past its limit or with control characters', async () => {
    const id = await upload('limits', await makeAnimation({ format: 'gif' }));
    for (const caption of ['x'.repeat(501), 'bell\u0007']) {
      const response = await testApp.app.inject({
        method: 'PATCH',
        url: `/api/items/${id}`,
        headers: { ...owner, 'content-type': 'application/json' },
        payload: JSON.stringify({ caption }),
      });
      expect(response.statusCode).toBe(400);
    }
  }, 120_000);
});
