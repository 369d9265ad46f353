import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentAddressedPath } from '../storage/media-paths.ts';
import { readFuzzSettings } from '../test-support/fuzz.ts';
import { startListeningApp } from '../test-support/oidc.ts';
import type { ListeningTestApp } from '../test-support/oidc.ts';
import { rawRequest, sendRaw } from '../test-support/raw-http.ts';
import { sniffImageType } from '../test-support/sniff-image.ts';

const fuzz = readFuzzSettings('media-paths');
const numRuns = fuzz.runs * 10;
const SECRET = 'TOP-SECRET-never-served-0123456789';

describe('/media serves catalog files only, as what they are', () => {
  let testApp: ListeningTestApp;
  let port: number;
  const files: Array<{ urlPath: string; bytes: Buffer; type: string }> = [];

  beforeAll(async () => {
    testApp = await startListeningApp();
    port = Number(new URL(testApp.baseUrl).port);
    const { mediaDir, dataDir } = { mediaDir: testApp.config.mediaDir, dataDir: testApp.dataDir };
    const pixel = sharp({ create: { width: 4, height: 4, channels: 3, background: '#f40' } });
    const images: Array<[Buffer, 'gif' | 'webp' | 'png']> = [
      [await pixel.clone().gif().toBuffer(), 'gif'],
      [await pixel.clone().webp().toBuffer(), 'webp'],
      [await pixel.clone().png().toBuffer(), 'png'],
    ];
    for (const [bytes, format] of images) {
      const sha = createHash('sha256').update(bytes).digest('hex');
      const relative = contentAddressedPath(sha, format);
      fs.mkdirSync(path.dirname(path.join(mediaDir, relative)), { recursive: true });
      fs.writeFileSync(path.join(mediaDir, relative), bytes);
      files.push({ urlPath: `/media/${relative}`, bytes, type: sniffImageType(bytes)! });
    }
    // Things that must never be served: beside the media folder, in staging, dotfiles.
    fs.writeFileSync(path.join(dataDir, 'secret.txt'), SECRET);
    fs.writeFileSync(path.join(dataDir, 'pg-password'), SECRET);
    fs.mkdirSync(path.join(mediaDir, '.incoming'), { recursive: true });
    fs.writeFileSync(path.join(mediaDir, '.incoming', 'staged.gif'), SECRET);
    fs.writeFileSync(path.join(mediaDir, '.secret'), SECRET);
  });
  afterAll(async () => {
    await testApp?.close();
  });

  const get = (target: string, method = 'GET', headers: Record<string, string> = {}) =>
    sendRaw(port, rawRequest(method, target, headers));

  it('serves a stored file with the type of what it really is, immutable, nosniff', async () => {
    for (const file of files) {
      const response = await sendRaw(port, rawRequest('GET', file.urlPath));
      expect(response.status, file.urlPath).toBe(200);
      expect(response.headers['content-type'], file.urlPath).toBe(file.type);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const fetched = Buffer.from(
        await (await fetch(`${testApp.baseUrl}${file.urlPath}`)).arrayBuffer(),
      );
      expect(fetched.equals(file.bytes)).toBe(true);
      expect(sniffImageType(fetched)).toBe(file.type);
    }
  });

  it('answers traversal, encoded slashes, staging, dotfiles and overlong paths with 400/404/414', async () => {
    const real = files[0]!.urlPath.replace('/media/', '');
    const [ab, cd, name] = real.split('/') as [string, string, string];
    const attempts = [
      '/media/../secret.txt',
      '/media/../../../../etc/passwd',
      '/media/%2e%2e/secret.txt',
      '/media/%2e%2e%2fsecret.txt',
      '/media/..%2f..%2f..%2fetc%2fpasswd',
      '/media/%252e%252e/secret.txt',
      '/media/..\\secret.txt',
      '/media/%5c..%5csecret.txt',
      `/media/${ab}%2f${cd}%2f${name}`,
      `/media/${ab}/${cd}/../../../secret.txt`,
      `/media/${ab}/${cd}/${name}/../../../../pg-password`,
      `/media/${ab}/${cd}/${name}%00.txt`,
      `/media/${ab}/${cd}/${name}/`,
      '/media/.incoming/staged.gif',
      '/media/%2eincoming/staged.gif',
      '/media/.secret',
      '/media//etc/passwd',
      '/media/',
      '/media',
      `/media/${'a/'.repeat(150)}x.gif`,
      `/media/${ab}/${cd}/${'f'.repeat(3000)}.gif`,
    ];
    for (const target of attempts) {
      const response = await get(target);
      expect([400, 404, 414], `${target} → ${response.status}`).toContain(response.status);
      expect(response.body).not.toContain(SECRET);
      expect(response.body).not.toContain('root:x:0:0');
    }
    const huge = await get(`/media/${'a'.repeat(20_000)}`);
    expect(huge.status).toBe(431);
  });

  it('never serves anything but a stored file, whatever the path (property)', async () => {
    const real = files.map((file) => file.urlPath.replace('/media/', ''));
    const segment = fc.oneof(
      fc.constantFrom(
        '..',
        '.',
        '%2e%2e',
        '%2e',
        '%2f',
        '%5c',
        '\\',
        '%00',
        '.incoming',
        'secret.txt',
        'pg-password',
        '.secret',
        '',
      ),
      fc.constantFrom(...real.flatMap((file) => file.split('/'))),
      fc.stringMatching(/^[0-9a-f%.]{1,8}$/),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(segment, { minLength: 1, maxLength: 8 }), async (segments) => {
        const target = `/media/${segments.join('/')}`;
        const response = await get(target);
        expect(response.body).not.toContain(SECRET);
        expect(response.status).toBeLessThan(500);
        if (response.status === 200) {
          const file = files.find((candidate) => candidate.urlPath === target);
          expect(file, `served ${target}`).toBeDefined();
          expect(response.headers['content-type']).toBe(file!.type);
        } else {
          expect([400, 404, 414]).toContain(response.status);
        }
      }),
      { numRuns, seed: fuzz.seed },
    );
  });

  it('refuses writes to /media', async () => {
    for (const method of ['PUT', 'POST', 'DELETE']) {
      const response = await sendRaw(
        port,
        rawRequest(
          method,
          files[0]!.urlPath,
          { 'Content-Type': 'image/gif', Origin: testApp.baseUrl },
          'GIF89a',
        ),
      );
      expect([404, 405], method).toContain(response.status);
    }
    expect(
      fs
        .readFileSync(path.join(testApp.config.mediaDir, files[0]!.urlPath.replace('/media/', '')))
        .equals(files[0]!.bytes),
    ).toBe(true);
  });
});
