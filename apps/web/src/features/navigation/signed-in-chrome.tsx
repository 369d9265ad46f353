import type { SessionUser } from '@sticky/contracts';
import { ChevronDown, Heart, Upload } from 'lucide-react';
import { lazy, Suspense, useRef, useState } from 'react';
import { NavLink, useLocation } from 'react-router';
import { buttonStyles } from '@/components/button-styles.ts';
import { mediumScreenQuery, useMediaQuery } from '@/lib/use-media-query.ts';
import { UserMenu } from './user-menu.tsx';

// Radix's dialog downloads when Categories is first opened: most visits never open it.
const CategoriesDialog = lazy(() =>
  import('./categories-dialog.tsx').then((module) => ({ default: module.CategoriesDialog })),
);

export { SearchBox } from './search-box.tsx';

/** The signed-in half of the header row: Categories, Upload, Favorite GIFs and the user menu. */
export function SignedInNav({ user }: { user: SessionUser }) {
  const isMediumScreen = useMediaQuery(mediumScreenQuery);
  const [isCategoriesOpen, setIsCategoriesOpen] = useState(false);
  const [returnFocusTo, setReturnFocusTo] = useState<HTMLElement | null>(null);
  const categoriesButtonRef = useRef<HTMLButtonElement>(null);
  const avatarRef = useRef<HTMLButtonElement>(null);

  // The panel closes on navigation, whichever link (or Back) caused it.
  const { pathname } = useLocation();
  const [openedAt, setOpenedAt] = useState(pathname);
  if (pathname !== openedAt) {
    setOpenedAt(pathname);
    if (isCategoriesOpen) setIsCategoriesOpen(false);
  }

  const [hasOpenedCategories, setHasOpenedCategories] = useState(false);
  const openCategories = (from: HTMLElement | null) => {
    setReturnFocusTo(from);
    setHasOpenedCategories(true);
    setIsCategoriesOpen(true);
  };

  return (
    <nav aria-label="Main" className="flex items-center gap-1 sm:gap-2">
      <button
        ref={categoriesButtonRef}
        type="button"
        className={`${buttonStyles.ghost} max-md:hidden`}
        aria-haspopup="dialog"
        aria-expanded={isCategoriesOpen}
        onClick={() => openCategories(categoriesButtonRef.current)}
      >
        Categories
        <ChevronDown className="size-4" aria-hidden="true" />
      </button>
      {user.canUpload && (
        <NavLink
          to="/upload"
          // On a phone only the icon shows: the title gives it a tooltip, the sr-only label its name.
          title="Upload"
          className={({ isActive }) =>
            `${buttonStyles.ghost} whitespace-nowrap max-sm:px-2 ${isActive ? 'bg-white/10 text-white' : ''}`
          }
        >
          <Upload className="size-4 text-violet-300" aria-hidden="true" />
          <span className="max-sm:sr-only">Upload</span>
        </NavLink>
      )}
      <NavLink
        to="/favorite"
        className={({ isActive }) =>
          `${buttonStyles.ghost} whitespace-nowrap max-sm:px-2 ${isActive ? 'bg-white/10 text-white' : ''}`
        }
      >
        <Heart className="size-4 text-pink-400" aria-hidden="true" />
        Favorite GIFs
      </NavLink>
      <UserMenu
        ref={avatarRef}
        user={user}
        showCategories={!isMediumScreen}
        onOpenCategories={() => openCategories(avatarRef.current)}
      />
      {hasOpenedCategories && (
        <Suspense fallback={null}>
          <CategoriesDialog
            open={isCategoriesOpen}
            onOpenChange={setIsCategoriesOpen}
            returnFocusTo={returnFocusTo}
          />
        </Suspense>
      )}
    </nav>
  );
}
