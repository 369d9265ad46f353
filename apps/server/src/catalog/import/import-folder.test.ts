import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { collectImportSources, ManifestError } from './import-folder.ts';

describe("an import manifest's links", () => {
  const folders: string[] = [];
  afterEach(() => {
    for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
  });

  function folderWith(item: Record<string, unknown>): string {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-manifest-'));
    folders.push(folder);
    fs.writeFileSync(path.join(folder, 'a.gif'), 'GIF89a');
    fs.writeFileSync(
      path.join(folder, 'manifest.json'),
      JSON.stringify({ items: [{ file: 'a.gif', ...item }] }),
    );
    return folder;
  }

  it('refuses a link that is not http(s), saying which', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ source: { url: 'javascript:alert(1)' } }, 'items.0.source'],
      [
        { creator: { username: 'x', website_url: 'data:text/html,<b>hi</b>' } },
        'items.0.creator.website_url',
      ],
      [
        { creator: { username: 'x', avatar_url: 'file:///etc/passwd' } },
        'items.0.creator.avatar_url',
      ],
      [
        { creator: { username: 'x', profile_url: 'vbscript:msgbox' } },
        'items.0.creator.profile_url',
      ],
    ];
    for (const [item, where] of cases) {
      const refused = await collectImportSources([folderWith(item)]).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused, where).toBeInstanceOf(ManifestError);
      expect((refused as Error).message, where).toContain(where);
    }
  });

  it('takes http(s) links and empty ones', async () => {
    const folder = folderWith({
      source: { url: 'https://example.org/cat' },
      creator: { username: 'x', website_url: 'http://example.org', avatar_url: '' },
    });
    const { sources } = await collectImportSources([folder]);
    expect(sources[0]?.metadata.sourceUrl).toBe('https://example.org/cat');
  });
});
