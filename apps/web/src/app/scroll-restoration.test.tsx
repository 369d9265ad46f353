import { render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter } from 'react-router';
import { createTestRouter } from '@/test-support/router-probe.tsx';
import { ScrollRestoration } from './scroll-restoration.tsx';

let scrollTo: ReturnType<typeof vi.fn>;

function scrollBy(y: number) {
  Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
  window.dispatchEvent(new Event('scroll'));
}

function renderAt(url: string) {
  const { router, RouterProbe } = createTestRouter();
  render(
    <MemoryRouter initialEntries={[url]}>
      <ScrollRestoration />
      <RouterProbe />
    </MemoryRouter>,
  );
  return router;
}

beforeEach(() => {
  scrollTo = vi.fn();
  vi.stubGlobal('scrollTo', scrollTo);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('scroll restoration', () => {
  it('starts a new address at the top', async () => {
    const router = renderAt('/');
    scrollBy(800);
    scrollTo.mockClear();
    await router.navigate('/favorite');
    expect(scrollTo).toHaveBeenCalledWith(0, 0);
  });

  it('keeps the position when only the query changes', async () => {
    const router = renderAt('/reactions');
    scrollBy(800);
    scrollTo.mockClear();
    await router.navigate('/reactions?sub=thumbs-up');
    expect(scrollTo).not.toHaveBeenCalled();
  });

  it('returns to where an entry was left on back', async () => {
    const router = renderAt('/');
    scrollBy(1200);
    await router.navigate('/favorite');
    scrollBy(0);
    scrollTo.mockClear();
    await router.navigate(-1);
    expect(router.state.location.pathname).toBe('/');
    expect(scrollTo).toHaveBeenCalledWith(0, 1200);
  });
});
