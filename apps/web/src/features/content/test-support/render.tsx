import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import toast, { Toaster } from 'react-hot-toast';
import { MemoryRouter, Route, Routes } from 'react-router';
import { createTestRouter } from '@/app/test-support/router-probe.tsx';

export interface RenderRouteOptions {
  /** Route pattern the element is mounted at, e.g. `/:type/:slug`. */
  path: string;
  /** The URL to open. */
  url: string;
}

/**
 * Renders a screen the way the app does (router, TanStack Query, toasts), with retries off
 * so a failure shows at once. Returns the router to read the location from.
 */
export function renderRoute(element: ReactElement, { path, url }: RenderRouteOptions) {
  // react-hot-toast asks matchMedia about reduced motion; jsdom has none.
  if (typeof window.matchMedia !== 'function') installMatchMedia();
  // Toasts live in a module-level store: start every screen without the last test's.
  toast.remove();
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, gcTime: Infinity }, mutations: { retry: false } },
  });
  const { router, RouterProbe } = createTestRouter();
  const view = render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path={path} element={element} />
          <Route path="*" element={<p>elsewhere</p>} />
        </Routes>
        <RouterProbe />
      </MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  );
  return { ...view, router, queryClient };
}

/** jsdom has no matchMedia; this one answers the listed queries as matching. */
export function installMatchMedia(matching: string[] = []) {
  const original = window.matchMedia;
  window.matchMedia = ((query: string) => ({
    matches: matching.includes(query),
    media: query,
    onchange: null,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  })) as typeof window.matchMedia;
  return () => {
    window.matchMedia = original;
  };
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
    unobserve() {}
    disconnect() {
      observers.delete(this.entry);
    }
    takeRecords() {
      return [];
    }
  }
  const original = globalThis.IntersectionObserver;
  globalThis.IntersectionObserver =
    FakeIntersectionObserver as unknown as typeof IntersectionObserver;
  return {
    /** Reports every observed element as visible. */
    revealAll() {
      for (const { callback, targets } of [...observers]) {
        callback(
          targets.map((target) => ({ isIntersecting: true, target }) as IntersectionObserverEntry),
          {} as IntersectionObserver,
        );
      }
    },
    restore() {
      globalThis.IntersectionObserver = original;
    },
  };
}
