import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expectNoSeriousAxeViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';
import { signInFromLanding, uniqueEmail } from './support/journey.ts';
import { makeLabelledGif } from './support/media.ts';

const execFileAsync = promisify(execFile);

const seed = Date.now() % 100_000;

test.describe('API tokens', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('Settings gives a curl command and a ShareX uploader that work as shown', async ({
    page,
    playwright,
    baseURL,
  }) => {
    // Several people, uploads and page loads: more than one quick journey's time.
    test.slow();
    await page.goto('/landing');
    await signInFromLanding(page, { name: 'Tom Token', email: uniqueEmail('token') });
    await page.getByRole('button', { name: /^Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Settings' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    const curlCode = page.getByRole('figure', { name: 'Upload with curl' }).locator('code');
    const shareXCode = page
      .getByRole('figure', { name: 'ShareX custom uploader (sticky.sxcu)' })
      .locator('code');
    // Before any token: both, with a placeholder where the token goes.
    await expect(curlCode).toContainText('-H "Authorization: Bearer <your token>"');
    await expect(shareXCode).toContainText('"Authorization": "Bearer <your token>"');
    await expectNoSeriousAxeViolations(page, 'settings without a token');

    await page.getByLabel('Token name').fill('My script');
    await page.getByRole('button', { name: 'Create token' }).click();
    const secret = (await page
      .locator('code')
      .filter({ hasText: /^sticky_/ })
      .textContent())!;
    expect(secret).toMatch(/^sticky_/);
    await expect(curlCode).toContainText(`-H "Authorization: Bearer ${secret}"`);
    await expectNoSeriousAxeViolations(page, 'settings with a new token');

    // The command exactly as the page shows it, run by a shell with the real curl, in a folder
    // that holds the cat.gif it sends.
    const command = (await curlCode.textContent())!;
    expect(command.startsWith('curl ')).toBe(true);
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-curl-'));
    let receipt: { state: string; url: string; uploadId: string };
    try {
      fs.writeFileSync(path.join(folder, 'cat.gif'), await makeLabelledGif(`tokens ${seed} curl`));
      const { stdout } = await execFileAsync('/bin/sh', ['-c', command], {
        cwd: folder,
        env: { PATH: '/usr/bin:/bin' },
      });
      receipt = (JSON.parse(stdout) as { uploads: Array<typeof receipt> }).uploads[0]!;
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
    expect(receipt.state).toBe('processing');
    await expect
      .poll(
        async () => {
          const mine = (await (await page.request.get('/api/uploads')).json()) as {
            uploads: Array<{ id: string; state: string }>;
          };
          return mine.uploads.find((entry) => entry.id === receipt.uploadId)?.state;
        },
        { timeout: 30_000 },
      )
      .toBe('ready');
    await page.goto(receipt.url);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Cat');

    // The ShareX uploader names this server's upload URL, the method, the form field and the
    // token; a request made from it alone (no cookie) uploads, and its URL template leads to
    // the item.
    await page.goto('/settings');
    await expect(shareXCode).toContainText('"Authorization": "Bearer <your token>"');
    await page.getByLabel('Token name').fill('ShareX');
    await page.getByRole('button', { name: 'Create token' }).click();
    const shareXSecret = (await page
      .locator('code')
      .filter({ hasText: /^sticky_/ })
      .textContent())!;
    const shareX = JSON.parse((await shareXCode.textContent())!) as {
      RequestMethod: string;
      RequestURL: string;
      Body: string;
      FileFormName: string;
      Headers: Record<string, string>;
      URL: string;
    };
    expect(shareX).toMatchObject({
      RequestMethod: 'POST',
      RequestURL: new URL('/api/uploads', baseURL).href,
      Body: 'MultipartFormData',
      FileFormName: 'file',
      Headers: { Authorization: `Bearer ${shareXSecret}` },
      URL: '{json:uploads[0].url}',
    });
    const sharex = await playwright.request.newContext();
    const response = await sharex.fetch(shareX.RequestURL, {
      method: shareX.RequestMethod,
      headers: shareX.Headers,
      multipart: {
        [shareX.FileFormName]: {
          name: 'shared.gif',
          mimeType: 'image/gif',
          buffer: await makeLabelledGif(`tokens ${seed} sharex`),
        },
      },
    });
    expect(response.status()).toBe(202);
    const link = ((await response.json()) as { uploads: Array<{ url: string }> }).uploads[0]!.url;
    expect(shareX.URL).toBe('{json:uploads[0].url}');
    await expect
      .poll(async () => (await sharex.get(link, { maxRedirects: 0 })).status(), {
        timeout: 30_000,
      })
      .toBe(302);
    await page.goto(link);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Shared');

    // Revoking asks first; then the token is gone from the list and no longer uploads.
    await page.goto('/settings');
    const tokens = page.getByRole('list', { name: 'Your API tokens' });
    await tokens.getByRole('button', { name: 'Revoke ShareX' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke this token?' });
    await expectNoSeriousAxeViolations(page, 'the revoke dialog');
    await dialog.getByRole('button', { name: 'Revoke token' }).click();
    await expect(dialog).toBeHidden();
    await expect(tokens.getByRole('listitem')).toHaveCount(1);
    await expect(tokens.getByRole('listitem')).toContainText('My script');
    const refused = await sharex.fetch(shareX.RequestURL, {
      method: shareX.RequestMethod,
      headers: shareX.Headers,
      multipart: {
        [shareX.FileFormName]: {
          name: 'late.gif',
          mimeType: 'image/gif',
          buffer: await makeLabelledGif(`tokens ${seed} revoked`),
        },
      },
    });
    expect(refused.status()).toBe(401);

    // "Revoke every token", beside "Sign out everywhere", asks first; then no token is left.
    const access = page.getByRole('region', { name: 'Sessions and tokens' });
    await expect(access.getByRole('button', { name: 'Sign out everywhere' })).toBeVisible();
    await access.getByRole('button', { name: 'Revoke every token' }).click();
    const revokeAll = page.getByRole('dialog', { name: 'Revoke every token?' });
    await expectNoSeriousAxeViolations(page, 'the revoke-every-token dialog');
    await revokeAll.getByRole('button', { name: 'Revoke every token' }).click();
    await expect(revokeAll).toBeHidden();
    await expect(page.getByText('No tokens yet.')).toBeVisible();
    const curlToken = await sharex.get(new URL('/api/uploads', baseURL).href, {
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(curlToken.status()).toBe(401);
    await sharex.dispose();
  });
});
