import { lazy, Suspense, useState } from 'react';
import type { KeyboardEvent, PointerEvent } from 'react';
import { AvatarContent, avatarClassName } from './avatar.tsx';
import type { UserMenuProps } from './user-menu-dropdown.tsx';

const loadUserMenuDropdown = () => import('./user-menu-dropdown.tsx');
const UserMenuDropdown = lazy(() =>
  loadUserMenuDropdown().then((module) => ({ default: module.UserMenuDropdown })),
);

/** Keys that open a menu button (WAI-ARIA menu button pattern, as Radix handles them). */
const openingKeys = new Set(['Enter', ' ', 'ArrowDown']);

/**
 * The avatar button; its menu (Radix and floating-ui, the heaviest part of the header) is
 * downloaded on hover or focus and mounted, open, on the first press. Until then the button
 * looks and announces itself as the menu button it becomes.
 */
export function UserMenu(props: UserMenuProps) {
  const { user, ref } = props;
  const [isActivated, setIsActivated] = useState(false);

  const preload = () => {
    void loadUserMenuDropdown();
  };
  const activate = () => setIsActivated(true);

  const avatarButton = (
    <button
      ref={ref}
      type="button"
      aria-label={`Account menu for ${user.name}`}
      aria-haspopup="menu"
      aria-expanded={false}
      className={avatarClassName}
      onPointerEnter={preload}
      onFocus={preload}
      onPointerDown={(event: PointerEvent<HTMLButtonElement>) => {
        // Radix opens on a primary-button press without Ctrl, not on click; so does this.
        if (event.button === 0 && !event.ctrlKey) activate();
      }}
      onKeyDown={(event: KeyboardEvent<HTMLButtonElement>) => {
        if (!openingKeys.has(event.key)) return;
        event.preventDefault();
        activate();
      }}
      // Assistive technology may click without pressing.
      onClick={activate}
    >
      <AvatarContent name={user.name} />
    </button>
  );

  if (!isActivated) return avatarButton;
  return (
    <Suspense fallback={avatarButton}>
      <UserMenuDropdown {...props} defaultOpen />
    </Suspense>
  );
}
