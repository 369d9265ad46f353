import { describe, expect, it, vi } from 'vitest';
import { getIsPageLoading, lazyPage, subscribePageLoads } from './lazy-page.ts';

describe('lazyPage', () => {
  it('reports a download while it runs, and downloads once', async () => {
    let finish: (component: () => null) => void = () => {};
    const load = vi.fn(() => new Promise<() => null>((resolve) => (finish = resolve)));
    const listener = vi.fn();
    const unsubscribe = subscribePageLoads(listener);
    const page = lazyPage(load);
    expect(getIsPageLoading()).toBe(false);

    const first = page.preload();
    const second = page.preload();
    expect(getIsPageLoading()).toBe(true);
    await Promise.resolve();
    expect(listener).toHaveBeenCalled();

    finish(() => null);
    await Promise.all([first, second]);
    expect(getIsPageLoading()).toBe(false);
    expect(load).toHaveBeenCalledTimes(1);
    unsubscribe();
  });

  it('stops reporting a download that failed', async () => {
    const page = lazyPage(() =>
      Promise.reject(new Error('Failed to fetch dynamically imported module')),
    );
    await expect(page.preload()).rejects.toThrow('dynamically imported module');
    expect(getIsPageLoading()).toBe(false);
  });
});
