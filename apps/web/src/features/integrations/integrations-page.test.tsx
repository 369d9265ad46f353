import type { ListIntegrationsResponse } from '@sticky/contracts';
import { screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { json, stubApi } from '@/test-support/api.ts';
import { renderRoute, testUser } from '@/test-support/render.tsx';
import { IntegrationsPage } from './integrations-page.tsx';

const admin = { ...testUser, isAdmin: true };

const answer: ListIntegrationsResponse = {
  success: true,
  publicUrl: 'https://gifs.example.com',
  rating: 'pg-13',
  platforms: [
    {
      platform: 'slack',
      name: 'Slack',
      isConfigured: true,
      endpoints: [
        {
          label: 'Slash command Request URL',
          url: 'https://gifs.example.com/integrations/slack/commands',
        },
      ],
      lastRequest: { at: '2026-12-07T10:00:00.000Z', isVerified: false },
      setupSteps: ['Create the app from the manifest.'],
      settings: [{ name: 'SLACK_SIGNING_SECRET', isSet: true }],
      manifest: { format: 'json', text: '{"settings": {}}' },
      notes: [],
    },
    {
      platform: 'telegram',
      name: 'Telegram',
      isConfigured: false,
      endpoints: [],
      lastRequest: null,
      setupSteps: ['Talk to @BotFather.'],
      settings: [{ name: 'TELEGRAM_BOT_TOKEN', isSet: false }],
      notes: ['Telegram fetches the media itself.'],
    },
  ],
};

describe('Admin → Integrations', () => {
  beforeAll(async () => {
    await import('@sticky/contracts');
  });

  it('shows every platform the server lists: state, endpoints, last request, setup, manifest', async () => {
    stubApi({ 'GET /api/admin/integrations': () => json(answer) });
    renderRoute(<IntegrationsPage />, {
      path: '/admin/integrations',
      url: '/admin/integrations',
      session: admin,
    });
    const slack = within(await screen.findByRole('region', { name: 'Slack' }));
    expect(slack.getByText('Configured')).toBeInTheDocument();
    expect(
      slack.getByText('https://gifs.example.com/integrations/slack/commands'),
    ).toBeInTheDocument();
    expect(slack.getByText(/refused, its signature or token did not verify/)).toBeInTheDocument();
    expect(slack.getByRole('textbox', { name: 'Slack app manifest' })).toHaveValue(
      '{"settings": {}}',
    );
    const telegram = within(screen.getByRole('region', { name: 'Telegram' }));
    expect(telegram.getByText('Not configured')).toBeInTheDocument();
    expect(telegram.getByText('None yet.')).toBeInTheDocument();
    expect(telegram.getByText('Talk to @BotFather.')).toBeInTheDocument();
  });

  it('tells someone who is not an admin, and asks nothing', () => {
    const api = stubApi({});
    renderRoute(<IntegrationsPage />, {
      path: '/admin/integrations',
      url: '/admin/integrations',
      session: testUser,
    });
    expect(screen.getByText('Only admins can see this page.')).toBeInTheDocument();
    expect(api.calls.filter((call) => call.url.includes('integrations'))).toEqual([]);
  });
});
