import { act } from '@testing-library/react';
import { useLayoutEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { Location, NavigateFunction, NavigateOptions, To } from 'react-router';

/**
 * What a test reads from the router: the location on screen and a way to navigate, shaped
 * like a data router's (`router.state.location`, `router.navigate`).
 */
export interface TestRouter {
  readonly state: { readonly location: Location };
  /** A path, or a number of history entries to go (-1: back). */
  navigate: (to: To | number, options?: NavigateOptions) => Promise<void>;
}

export function createTestRouter() {
  let location: Location | undefined;
  let navigateTo: NavigateFunction | undefined;

  const router: TestRouter = {
    get state() {
      if (!location) throw new Error('the router has not rendered yet');
      return { location };
    },
    async navigate(to, options) {
      if (!navigateTo) throw new Error('the router has not rendered yet');
      const navigate = navigateTo;
      await act(async () => {
        await (typeof to === 'number' ? navigate(to) : navigate(to, options));
      });
    },
  };

  /** Render inside the router: keeps `router` up to date with what was committed. */
  function RouterProbe() {
    const current = useLocation();
    const navigate = useNavigate();
    useLayoutEffect(() => {
      location = current;
      navigateTo = navigate;
    }, [current, navigate]);
    return null;
  }

  return { router, RouterProbe };
}
