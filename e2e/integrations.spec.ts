import { createHmac } from 'node:crypto';
import { test as base, expect } from '@playwright/test';
import { e2eAdminEmail } from './support/api-key.ts';
import { expectNoSeriousAxeViolations } from './support/axe.ts';
import { signInFromLanding, uniqueEmail } from './support/journey.ts';
import { startStickyServer } from './support/server.ts';
import type { StickyServer } from './support/server.ts';

const slackSecret = 'e2e-slack-signing-secret-0123456789';

/** A server with Slack configured: its admin page shows Slack configured, the others not. */
const test = base.extend<object, { sticky: StickyServer }>({
  sticky: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const sticky = await startStickyServer({
        ADMIN_EMAILS: e2eAdminEmail,
        SLACK_SIGNING_SECRET: slackSecret,
        SEED_STARTER_CATALOG: 'false',
      });
      await use(sticky);
      await sticky.stop();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
});

test.describe('/admin/integrations', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('an admin sees each platform, its endpoints, the last request and the Slack manifest', async ({
    browser,
    sticky,
  }) => {
    // A slash command as Slack signs it: the page then shows a verified last request.
    const body = 'team_id=T1&user_id=U1&command=%2Fsticky&text=';
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = `v0=${createHmac('sha256', slackSecret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
    const context = await browser.newContext({ baseURL: sticky.url });
    const command = await context.request.post('/integrations/slack/commands', {
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-slack-request-timestamp': timestamp,
        'x-slack-signature': signature,
      },
      data: body,
    });
    expect(command.status()).toBe(200);

    const page = await context.newPage();
    await page.goto('/landing');
    await signInFromLanding(page, { name: 'Ada Admin', email: e2eAdminEmail });
    await page.goto('/admin');
    await page.getByRole('link', { name: 'Integrations' }).click();
    await expect(page).toHaveURL(/\/admin\/integrations$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Integrations');

    const slack = page.getByRole('region', { name: 'Slack' });
    await expect(slack).toContainText('Configured');
    await expect(slack).toContainText(`${sticky.url}/integrations/slack/commands`);
    await expect(slack).toContainText(`${sticky.url}/integrations/slack/interactions`);
    await expect(slack).toContainText('verified.');
    const manifest = slack.getByRole('textbox', { name: 'Slack app manifest' });
    await expect(manifest).toHaveValue(
      new RegExp(`"request_url": "${sticky.url}/integrations/slack/interactions"`),
    );
    await expect(page.getByRole('region', { name: 'Mattermost' })).toContainText('Not configured');
    await expect(page.getByRole('region', { name: 'Discord' })).toContainText('Not configured');
    await expect(page.getByRole('region', { name: 'Discord' })).toContainText(
      `${sticky.url}/integrations/discord/interactions`,
    );
    // Keyboard: the manifest can be reached and selected to copy it.
    await manifest.focus();
    await expect(manifest).toBeFocused();
    await expect(page.locator('body')).not.toContainText(slackSecret);
    await expectNoSeriousAxeViolations(page, 'the integrations page');
    await context.close();
  });

  test('someone who is not an admin is told so', async ({ browser, sticky }) => {
    const page = await (await browser.newContext({ baseURL: sticky.url })).newPage();
    await page.goto('/landing');
    await signInFromLanding(page, { name: 'Nora Nobody', email: uniqueEmail('integrations') });
    await page.goto('/admin/integrations');
    await expect(page.getByText('Only admins can see this page.')).toBeVisible();
    await expectNoSeriousAxeViolations(page, 'the integrations page for a non-admin');
  });
});
