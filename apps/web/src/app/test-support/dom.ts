import { vi } from 'vitest';

/**
 * What jsdom lacks and Radix or react-hot-toast use: matchMedia, ResizeObserver, pointer
 * capture and scrollIntoView. `matchingQueries` are the media queries that match (e.g.
 * `mediumScreenQuery` for a tablet or desktop width).
 */
export function installDom(matchingQueries: string[] = []) {
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({
      matches: matchingQueries.includes(query),
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    })),
  );
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
  vi.stubGlobal('scrollTo', () => {});
  const proto = window.HTMLElement.prototype as unknown as Record<string, unknown>;
  proto.hasPointerCapture ??= () => false;
  proto.releasePointerCapture ??= () => {};
  proto.scrollIntoView ??= () => {};
}
