import type { AdminOverviewResponse } from '@sticky/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, stubApi } from '@/test-support/api.ts';
import { renderRoute, testUser } from '@/test-support/render.tsx';
import { AdminOverviewPage } from './overview-page.tsx';

const admin = { ...testUser, isAdmin: true };

/** 30 days ending on Dec 7, 2026, with `counts` on the last days. */
function daysEndingWith(counts: number[]) {
  return Array.from({ length: 30 }, (_, index) => ({
    day: new Date(Date.UTC(2026, 11, 7 - 29 + index)).toISOString().slice(0, 10),
    count: counts[index - (30 - counts.length)] ?? 0,
  }));
}

const answer: AdminOverviewResponse = {
  uploadsPerDay: daysEndingWith([3, 0, 12]),
  searchesPerDay: daysEndingWith([40, 25]),
  topSearches: [
    { query: 'dancing cat', count: 31 },
    { query: 'thumbs up', count: 9 },
  ],
  missedSearches: [{ query: 'purple narwhal', count: 4 }],
  storage: {
    originalBytes: 3 * 1024 ** 3,
    renditionBytes: 5 * 1024 ** 3,
    readAt: '2026-12-07T10:00:00.000Z',
  },
  jobQueues: [{ queue: 'renditions', waiting: 7, active: 2, oldestAgeSeconds: 185 }],
  health: {
    database: { state: 'ok', latencyMs: 2.4 },
    storage: { state: 'unreachable', kind: 's3' },
  },
};

const empty: AdminOverviewResponse = {
  uploadsPerDay: daysEndingWith([]),
  searchesPerDay: daysEndingWith([]),
  topSearches: [],
  missedSearches: [],
  storage: { originalBytes: 0, renditionBytes: 0, readAt: '2026-12-07T10:00:00.000Z' },
  jobQueues: [],
  health: { database: { state: 'ok', latencyMs: 0.3 }, storage: { state: 'ok', kind: 'local' } },
};

const open = (overview: AdminOverviewResponse) => {
  stubApi({ 'GET /api/admin/overview': () => json(overview) });
  return renderRoute(<AdminOverviewPage />, {
    url: '/admin/overview',
    path: '/admin/overview',
    session: admin,
  });
};

describe('Admin overview', () => {
  it("gives each chart's numbers as a table, and the lists, storage, queues and health as text", async () => {
    open(answer);
    const uploads = await screen.findByRole('table', { name: 'Uploads per day, by day' });
    const rows = within(uploads).getAllByRole('row');
    // A header and 30 days, today last.
    expect(rows).toHaveLength(31);
    expect(
      within(rows[30]!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Dec 7', '12']);
    expect(
      within(rows[28]!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Dec 5', '3']);
    expect(
      within(rows[1]!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Nov 8', '0']);
    const searches = screen.getByRole('table', { name: 'Searches per day, by day' });
    expect(within(searches).getByRole('cell', { name: '40' })).toBeInTheDocument();
    expect(
      screen.getByText('15 uploads in the last 30 days; the most on Dec 7 (12).'),
    ).toBeInTheDocument();

    const top = screen.getByRole('region', { name: 'Top searches' });
    expect(
      within(top)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['dancing cat31 people', 'thumbs up9 people']);
    const missed = screen.getByRole('region', { name: 'Searches that found nothing' });
    expect(within(missed).getByRole('listitem')).toHaveTextContent('purple narwhal4 people');

    const storage = screen.getByRole('region', { name: 'Storage' });
    expect(storage).toHaveTextContent('8.0 GB of media files in all.');
    expect(storage).toHaveTextContent('Originals3.0 GB');
    const queues = screen.getByRole('region', { name: 'Job queues' });
    expect(within(queues).getByRole('row', { name: 'renditions 7 2 3 min' })).toBeInTheDocument();
    const health = screen.getByRole('region', { name: 'Health' });
    expect(health).toHaveTextContent('Database:OK, answers in 2 ms');
    expect(health).toHaveTextContent('Storage:Unreachable, S3 bucket does not answer');
  });

  it('moves through the days by keyboard and shows the table on request', async () => {
    const user = userEvent.setup();
    open(answer);
    const chart = await screen.findByRole('slider', { name: 'Uploads per day: choose a day' });
    expect(chart).toHaveAttribute('aria-valuetext', 'Dec 7: 12 uploads');
    await user.click(chart);
    expect(chart).toHaveFocus();
    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(chart).toHaveAttribute('aria-valuetext', 'Dec 5: 3 uploads');
    await user.keyboard('{Home}');
    expect(chart).toHaveAttribute('aria-valuetext', 'Nov 8: 0 uploads');
    expect(screen.getByText('Nov 8: 0 uploads')).toBeInTheDocument();

    const table = screen.getByRole('table', { name: 'Uploads per day, by day' });
    expect(table).toHaveClass('sr-only');
    const toggle = screen.getAllByRole('button', { name: 'Show the numbers' })[0]!;
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(toggle).toHaveAccessibleName('Hide the numbers');
    expect(table).not.toHaveClass('sr-only');
  });

  it('says when nothing was recorded yet', async () => {
    open(empty);
    expect(await screen.findByText('No uploads in the last 30 days.')).toBeInTheDocument();
    expect(screen.getByText('No searches in the last 30 days.')).toBeInTheDocument();
    expect(screen.getByText('No search yet that two people made.')).toBeInTheDocument();
    expect(screen.getByText('No search that two people made came back empty.')).toBeInTheDocument();
    expect(screen.getByText('No jobs waiting or running.')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Storage' })).toHaveTextContent(
      '0 B of media files in all.',
    );
  });

  it('is for admins only', async () => {
    stubApi({});
    renderRoute(<AdminOverviewPage />, { url: '/admin/overview', path: '/admin/overview' });
    expect(await screen.findByText('Only admins can see this page.')).toBeInTheDocument();
  });
});
