import type { Credit } from '@sticky/contracts';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderRoutes } from '@/test-support/render.tsx';

const shipped = vi.hoisted(() => ({ credits: [] as Credit[] }));
vi.mock('@sticky/contracts/credits-list', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  get credits() {
    return shipped.credits;
  },
}));

const { CreditsPage } = await import('./credits-page.tsx');

function renderCredits() {
  return renderRoutes([{ path: '/credits', element: <CreditsPage /> }], {
    url: '/credits',
    session: null,
  });
}

describe('credits page', () => {
  it('lists every credit with its author, use, licence and source', () => {
    shipped.credits = [
      {
        name: 'Noto Emoji',
        author: 'Google',
        license: 'Apache-2.0',
        licenseUrl: 'https://www.apache.org/licenses/LICENSE-2.0',
        sourceUrl: 'https://github.com/googlefonts/noto-emoji',
        usedFor: 'Emoji art in the starter catalog',
      },
    ];
    renderCredits();
    expect(screen.getByRole('heading', { level: 1, name: 'Credits' })).toBeInTheDocument();
    const item = screen.getByRole('listitem');
    expect(within(item).getByRole('heading', { name: 'Noto Emoji' })).toBeInTheDocument();
    expect(item).toHaveTextContent('by Google');
    expect(item).toHaveTextContent('Used for: Emoji art in the starter catalog');
    const licence = within(item).getByRole('link', { name: /^Apache-2\.0/ });
    expect(licence).toHaveAttribute('href', 'https://www.apache.org/licenses/LICENSE-2.0');
    expect(licence).toHaveAttribute('rel', 'noopener noreferrer');
    expect(within(item).getByRole('link', { name: /^Source/ })).toHaveAttribute(
      'href',
      'https://github.com/googlefonts/noto-emoji',
    );
  });

  it('says so when nothing third-party is shipped', () => {
    shipped.credits = [];
    renderCredits();
    expect(screen.getByText('This build ships no third-party fonts, art or media.')).toBeVisible();
  });
});
