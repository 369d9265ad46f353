import { createBrowserRouter } from 'react-router';
import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { RequireGuest, RequireUser } from '@/features/auth';
import { preloadSignedInChrome } from '@/features/navigation';
import { AppLoading } from './app-loading.tsx';
import { RootLayout } from './root-layout.tsx';
import { NotFoundPage, RootError, RouteError } from './route-error.tsx';

/**
 * A signed-in screen, downloaded on first visit. The signed-in header downloads alongside
 * it (and alongside the session check started at boot), not after it.
 */
function signedInPage(load: () => Promise<ComponentType>) {
  return async () => {
    preloadSignedInChrome();
    return { Component: await load() };
  };
}

/** Spec §2's routes. Static segments outrank `:category` and `:type/:slug`. */
export const routes: RouteObject[] = [
  {
    Component: RootLayout,
    ErrorBoundary: RootError,
    HydrateFallback: AppLoading,
    children: [
      {
        ErrorBoundary: RouteError,
        children: [
          {
            Component: RequireUser,
            children: [
              {
                index: true,
                lazy: signedInPage(() => import('@/features/home').then((m) => m.HomePage)),
              },
              {
                path: 'search/:query',
                lazy: signedInPage(() => import('@/features/search').then((m) => m.SearchPage)),
              },
              {
                path: 'favorite',
                lazy: signedInPage(() =>
                  import('@/features/favorites').then((m) => m.FavoritesPage),
                ),
              },
              {
                path: ':type/:slug',
                lazy: signedInPage(() => import('@/features/item').then((m) => m.ItemPage)),
              },
              {
                path: ':category',
                lazy: async () => {
                  preloadSignedInChrome();
                  return import('@/features/categories/category-route.tsx');
                },
              },
            ],
          },
          {
            Component: RequireGuest,
            children: [
              {
                path: 'landing',
                lazy: async () => ({
                  Component: (await import('@/features/landing')).LandingPage,
                }),
              },
            ],
          },
          {
            path: 'credits',
            lazy: async () => ({ Component: (await import('@/features/credits')).CreditsPage }),
          },
          { path: '*', Component: NotFoundPage },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
