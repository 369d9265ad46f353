import { vi } from 'vitest';

/**
 * What jsdom lacks and the app, Radix or react-hot-toast use: matchMedia, ResizeObserver,
 * pointer capture and scrollIntoView. `matchingQueries` are the media queries that match
 * (e.g. `mediumScreenQuery` for a tablet or desktop width); call it again to change them
 * before the next render.
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

/** jsdom has no IntersectionObserver; this one lets a test scroll the grid's end into view. */
export function installIntersectionObserver() {
  const observers = new Set<{ callback: IntersectionObserverCallback; targets: Element[] }>();
  class FakeIntersectionObserver {
    private entry: { callback: IntersectionObserverCallback; targets: Element[] };
    constructor(callback: IntersectionObserverCallback) {
      this.entry = { callback, targets: [] };
      observers.add(this.entry);
    }
    observe(target: Element) {
      this.entry.targets.push(target);
    }
    unobserve(target: Element) {
      this.entry.targets = this.entry.targets.filter((watched) => watched !== target);
    }
    disconnect() {
      observers.delete(this.entry);
    }
    takeRecords() {
      return [];
    }
  }
  vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
  return {
    /** Whether any observer watches `element` (the grid's end: whether it asks for more). */
    isObserved(element: Element) {
      return [...observers].some(({ targets }) => targets.includes(element));
    },
    /** Reports every observed element as visible. */
    revealAll() {
      for (const { callback, targets } of [...observers]) {
        callback(
          targets.map((target) => ({ isIntersecting: true, target }) as IntersectionObserverEntry),
          {} as IntersectionObserver,
        );
      }
    },
  };
}
