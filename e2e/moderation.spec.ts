import { e2eAdminEmail } from './support/api-key.ts';
import { expectNoSeriousAxeViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';
import { signInFromLanding, uniqueEmail } from './support/journey.ts';
import { makeLabelledGif } from './support/media.ts';

const seed = Date.now() % 100_000;
const title = `Reportable ${seed.toString(36)}`;

test.describe('moderation', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('one person reports an item; an admin hides it and resolves the report; its bytes stay out', async ({
    browser,
    baseURL,
  }) => {
    // Three people, an upload and page loads: more than one quick journey's time.
    test.slow();
    const bytes = await makeLabelledGif(`moderation ${seed}`);
    const ownerPage = await (await browser.newContext({ baseURL })).newPage();
    await ownerPage.goto('/landing');
    await signInFromLanding(ownerPage, { name: 'Owen Owner', email: uniqueEmail('mod-owner') });
    const upload = await ownerPage.request.post('/api/uploads', {
      multipart: { title, file: { name: 'report-me.gif', mimeType: 'image/gif', buffer: bytes } },
    });
    expect(upload.status()).toBe(202);
    const { uploadId } = ((await upload.json()) as { uploads: Array<{ uploadId: string }> })
      .uploads[0]!;
    let itemId = '';
    await expect
      .poll(
        async () => {
          const mine = (await (await ownerPage.request.get('/api/uploads')).json()) as {
            uploads: Array<{ id: string; state: string; itemId: string | null }>;
          };
          const entry = mine.uploads.find((candidate) => candidate.id === uploadId);
          itemId = entry?.itemId ?? '';
          return entry?.state;
        },
        { timeout: 30_000 },
      )
      .toBe('ready');

    // Someone else reports it from its page.
    const reporterPage = await (await browser.newContext({ baseURL })).newPage();
    await reporterPage.goto('/landing');
    await signInFromLanding(reporterPage, {
      name: 'Rita Reporter',
      email: uniqueEmail('mod-reporter'),
    });
    await reporterPage.goto(`/gif/${itemId}`);
    await expect(reporterPage.getByRole('heading', { level: 1 })).toHaveText(title);
    await reporterPage.getByRole('button', { name: 'Report', exact: true }).click();
    const dialog = reporterPage.getByRole('dialog', { name: 'Report this item' });
    await expect(dialog).toBeVisible();
    await expectNoSeriousAxeViolations(reporterPage, 'the report dialog');
    // Keyboard only: the reasons are a radio group, the note a labelled field.
    await dialog.getByRole('radio', { name: 'Spam' }).focus();
    await reporterPage.keyboard.press('Space');
    await expect(dialog.getByRole('radio', { name: 'Spam' })).toBeChecked();
    await dialog.getByLabel('Note (optional)').fill('Posted in every channel');
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await expect(dialog).toBeHidden();
    await expect(reporterPage.getByText(/Report sent/)).toBeVisible();

    // The admin finds it on /admin beside the uploads, hides the item and resolves it.
    const adminPage = await (await browser.newContext({ baseURL })).newPage();
    await adminPage.goto('/landing');
    await signInFromLanding(adminPage, { name: 'Ada Admin', email: e2eAdminEmail });
    await adminPage.getByRole('button', { name: /^Account menu/ }).click();
    await adminPage.getByRole('menuitem', { name: 'Admin' }).click();
    const reports = adminPage.getByRole('list', { name: 'Reports' });
    const report = reports.getByRole('listitem').filter({ hasText: title });
    await expect(report).toContainText('Spam');
    await expect(report).toContainText('Posted in every channel');
    await expect(report).toContainText('Rita Reporter');
    await expectNoSeriousAxeViolations(adminPage, 'the admin page with a report');
    await report
      .getByRole('button', { name: `Hide item and resolve the report of ${title}` })
      .click();
    await expect(adminPage.getByText('Item hidden, report resolved')).toBeVisible();
    await expect(
      adminPage
        .getByRole('listitem')
        .filter({ hasText: title })
        .getByText('Posted in every channel'),
    ).toHaveCount(0);
    const audit = adminPage.getByRole('list', { name: 'Audit list' });
    await expect(audit).toContainText(`hid item ${itemId}`);
    await expect(audit).toContainText(`resolved a report of item ${itemId}`);
    await expectNoSeriousAxeViolations(adminPage, 'the admin page after resolving');

    // Its page is gone for the reporter; its owner cannot send the same file again.
    await reporterPage.goto(`/gif/${itemId}`);
    await expect(reporterPage.getByRole('heading', { level: 1, name: title })).toHaveCount(0);
    const again = await ownerPage.request.post('/api/uploads', {
      multipart: { file: { name: 'again.gif', mimeType: 'image/gif', buffer: bytes } },
    });
    expect(again.status()).toBe(403);
    expect(((await again.json()) as { error: { message: string } }).error.message).toBe(
      "again.gif: This file can't be uploaded here.",
    );
  });
});
