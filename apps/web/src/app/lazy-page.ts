import { lazy } from 'react';
import type { ComponentType, LazyExoticComponent } from 'react';

let pendingLoads = 0;
const listeners = new Set<() => void>();

function notifyListeners() {
  for (const listener of listeners) listener();
}

/** Counts a screen's download while it runs, for the navigation progress bar. */
function trackLoad<T>(promise: Promise<T>): Promise<T> {
  pendingLoads += 1;
  // React.lazy starts the download while rendering; listeners re-render other components,
  // which React forbids during a render: tell them just after.
  queueMicrotask(notifyListeners);
  const settle = () => {
    pendingLoads -= 1;
    notifyListeners();
  };
  promise.then(settle, settle);
  return promise;
}

export function subscribePageLoads(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function getIsPageLoading() {
  return pendingLoads > 0;
}

export interface LazyPage {
  Page: LazyExoticComponent<ComponentType>;
  /** Starts the download early (e.g. at boot, alongside the session check). */
  preload: () => Promise<unknown>;
}

/** A screen downloaded on first use; `preload` and rendering share one download. */
export function lazyPage(load: () => Promise<ComponentType>): LazyPage {
  let loading: Promise<{ default: ComponentType }> | undefined;
  const preload = () =>
    (loading ??= trackLoad(load().then((Component) => ({ default: Component }))));
  return { Page: lazy(preload), preload };
}
