import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoutes } from '@/test-support/render.tsx';
import { SiteFooter } from './site-footer.tsx';

describe('footer', () => {
  it("has 'Connect With Us' with social links that open safely in a new tab", () => {
    renderRoutes([{ path: '/', element: <SiteFooter /> }], { url: '/', session: null });
    const footer = screen.getByRole('contentinfo');
    const heading = within(footer).getByRole('heading', { name: 'Connect With Us' });
    const list = heading.nextElementSibling as HTMLElement;
    const links = within(list).getAllByRole('link');
    expect(links.length).toBeGreaterThanOrEqual(2);
    for (const link of links) {
      expect(link).toHaveAttribute('target', '_blank');
      expect(link).toHaveAttribute('rel', 'noopener noreferrer');
      expect(link.getAttribute('href')).toMatch(/^https:\/\//);
      expect(link).toHaveAccessibleName(/\(opens in a new tab\)$/);
    }
  });

  it('has a credit line linking to the credits', () => {
    renderRoutes([{ path: '/', element: <SiteFooter /> }], { url: '/', session: null });
    expect(screen.getByText(/Made with/)).toHaveTextContent('by the Sticky contributors');
    expect(screen.getByRole('link', { name: 'see the credits' })).toHaveAttribute(
      'href',
      '/credits',
    );
  });
});
