import { Suspense } from 'react';
import type { ComponentType } from 'react';
import {
  createRoutesFromChildren,
  matchRoutes,
  Outlet,
  Route,
  Routes,
  useLocation,
} from 'react-router';
import { ErrorBoundary } from '@/components/error-boundary.tsx';
import { RequireGuest, RequireUser } from '@/features/auth';
import { loadSignedInChrome } from '@/features/navigation';
import { AppLoading } from './app-loading.tsx';
import { lazyPage } from './lazy-page.ts';
import type { LazyPage } from './lazy-page.ts';
import { RootLayout } from './root-layout.tsx';
import { NotFoundPage, RootError, RouteError } from './route-error.tsx';

/**
 * A signed-in screen, downloaded on first visit. The signed-in header downloads alongside
 * it (and alongside the session check started at boot), not after it, and the screen counts
 * as here once both are: the first render then draws the header whole, where a placeholder
 * first would move its neighbours when the menu arrives.
 */
function signedInPage(load: () => Promise<ComponentType>) {
  return lazyPage(() => Promise.all([loadSignedInChrome(), load()]).then(([, Page]) => Page));
}

const homePage = signedInPage(() => import('@/features/home').then((m) => m.HomePage));
const searchPage = signedInPage(() => import('@/features/search').then((m) => m.SearchPage));
const favoritesPage = signedInPage(() =>
  import('@/features/favorites').then((m) => m.FavoritesPage),
);
const itemPage = signedInPage(() => import('@/features/item').then((m) => m.ItemPage));
const categoryPage = signedInPage(() =>
  import('@/features/categories').then((m) => m.CategoryPage),
);
const uploadPage = signedInPage(() => import('@/features/uploads').then((m) => m.UploadPage));
const myUploadsPage = signedInPage(() => import('@/features/uploads').then((m) => m.MyUploadsPage));
const adminPage = signedInPage(() => import('@/features/uploads').then((m) => m.AdminPage));
const integrationsPage = signedInPage(() =>
  import('@/features/integrations').then((m) => m.IntegrationsPage),
);
const adminOverviewPage = signedInPage(() =>
  import('@/features/admin-overview').then((m) => m.AdminOverviewPage),
);
const settingsPage = signedInPage(() => import('@/features/settings').then((m) => m.SettingsPage));
// A shared item page for signed-out visitors, and the page of an upload's link that waits.
const sharedItemPage = lazyPage(() =>
  import('@/features/item').then((m) => m.loadSharedItemPage()),
);
const uploadLinkPage = lazyPage(() =>
  import('@/features/item').then((m) => m.loadUploadLinkPage()),
);
const landingPage = lazyPage(() => import('@/features/landing').then((m) => m.LandingPage));
const creditsPage = lazyPage(() => import('@/features/credits').then((m) => m.CreditsPage));

/** A route's `handle`: its lazy screen, so the first one can download at boot. */
interface PageHandle {
  page: LazyPage;
}

function pageRoute(page: LazyPage) {
  return { element: <page.Page />, handle: { page } satisfies PageHandle };
}

/** A failed screen shows its error inside the layout; the next address tries again. */
function ScreenErrorBoundary() {
  const { key } = useLocation();
  return (
    <ErrorBoundary resetKey={key} fallback={(error) => <RouteError error={error} />}>
      <Outlet />
    </ErrorBoundary>
  );
}

/**
 * The routes (docs/web.md, "Screens and routes"). Static segments outrank `:category` and
 * `:type/:slug`.
 */
const routeTree = (
  <Route element={<RootLayout />}>
    <Route element={<ScreenErrorBoundary />}>
      <Route element={<RequireUser />}>
        <Route index {...pageRoute(homePage)} />
        <Route path="search/:query" {...pageRoute(searchPage)} />
        <Route path="favorite" {...pageRoute(favoritesPage)} />
        <Route path="upload" {...pageRoute(uploadPage)} />
        <Route path="uploads" {...pageRoute(myUploadsPage)} />
        <Route path="admin" {...pageRoute(adminPage)} />
        <Route path="admin/integrations" {...pageRoute(integrationsPage)} />
        <Route path="admin/overview" {...pageRoute(adminOverviewPage)} />
        <Route path="settings" {...pageRoute(settingsPage)} />
        <Route path=":category" {...pageRoute(categoryPage)} />
      </Route>
      {/* Signed out, a shared item's page: the landing page, or the item with PUBLIC_LINKS. */}
      <Route element={<RequireUser guest={<sharedItemPage.Page />} />}>
        <Route path=":type/:slug" {...pageRoute(itemPage)} />
      </Route>
      <Route path="u/:id" {...pageRoute(uploadLinkPage)} />
      <Route element={<RequireGuest />}>
        <Route path="landing" {...pageRoute(landingPage)} />
      </Route>
      <Route path="credits" {...pageRoute(creditsPage)} />
      <Route path="*" element={<NotFoundPage />} />
    </Route>
  </Route>
);

/**
 * Downloads the screen at `pathname` now; settles when it is here (or failed: the screen's
 * error boundary says so when it renders). At boot the guards wait for the session check
 * before rendering a screen; without this its code would only start downloading after.
 */
export function preloadPageAt(pathname: string): Promise<unknown> {
  const matches = matchRoutes(createRoutesFromChildren(routeTree), pathname) ?? [];
  return Promise.allSettled(
    matches.map((match) => (match.route.handle as PageHandle | undefined)?.page.preload()),
  );
}

/**
 * Every route of the app, for a `<BrowserRouter>` (or a `<MemoryRouter>` in tests). The
 * first screen's download shows the loading page; later ones keep the current screen (router
 * updates are transitions) under the layout's progress bar.
 */
export function AppRoutes() {
  const { key } = useLocation();
  return (
    <ErrorBoundary resetKey={key} fallback={(error) => <RootError error={error} />}>
      <Suspense fallback={<AppLoading />}>
        <Routes>{routeTree}</Routes>
      </Suspense>
    </ErrorBoundary>
  );
}
