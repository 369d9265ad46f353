import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import {
  House,
  Images,
  KeyRound,
  LayoutGrid,
  LogOut,
  MonitorSmartphone,
  ShieldCheck,
  Upload,
} from 'lucide-react';
import type { SessionUser } from '@sticky/contracts';
import type { LucideIcon } from 'lucide-react';
import { useRef } from 'react';
import type { Ref } from 'react';
import { Link } from 'react-router';
import { useLogout } from '@/features/auth';
import { AvatarContent, avatarClassName } from './avatar.tsx';

export interface UserMenuProps {
  user: SessionUser;
  /** Small screens reach Categories from this menu (docs/web.md, "Screens and routes"). */
  showCategories: boolean;
  onOpenCategories: () => void;
  /** The avatar button, for returning focus to it. */
  ref?: Ref<HTMLButtonElement>;
}

interface UserMenuDropdownProps extends UserMenuProps {
  /** Mounted by the avatar's first press: open at once. */
  defaultOpen?: boolean;
}

/** The menu's pages, in order; some only for who may use them. */
const menuLinks: Array<{
  to: string;
  label: string;
  Icon: LucideIcon;
  isShown?: (user: UserMenuProps['user']) => boolean;
}> = [
  { to: '/', label: 'Home', Icon: House },
  { to: '/upload', label: 'Upload', Icon: Upload, isShown: (user) => user.canUpload },
  { to: '/uploads', label: 'My uploads', Icon: Images },
  { to: '/settings', label: 'Settings', Icon: KeyRound },
  { to: '/admin', label: 'Admin', Icon: ShieldCheck, isShown: (user) => user.isAdmin },
];

const itemClass =
  'flex cursor-pointer items-center gap-3 rounded-lg px-3 py-2 text-sm text-gray-100 outline-none ' +
  'data-[highlighted]:bg-violet-500/20 data-[highlighted]:text-white data-[disabled]:opacity-50';

/**
 * The avatar button and its menu: Home, Upload, My uploads, Settings, Admin (admins),
 * Categories (small screens), Logout, Sign out everywhere.
 */
export function UserMenuDropdown({
  user,
  showCategories,
  onOpenCategories,
  ref,
  defaultOpen = false,
}: UserMenuDropdownProps) {
  const logout = useLogout();
  const logoutEverywhere = useLogout('everywhere');
  const isOpeningCategories = useRef(false);

  return (
    // Not modal: the Categories dialog opens from it, and two modal layers fight over focus.
    <DropdownMenu.Root modal={false} defaultOpen={defaultOpen}>
      <DropdownMenu.Trigger
        ref={ref}
        aria-label={`Account menu for ${user.name}`}
        className={avatarClassName}
      >
        <AvatarContent name={user.name} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={8}
          className="z-50 min-w-56 rounded-xl border border-white/10 bg-gray-900 p-1.5 shadow-2xl motion-safe:animate-pop-in"
          onCloseAutoFocus={(event) => {
            // The Categories dialog takes focus; the trigger must not take it back.
            if (isOpeningCategories.current) {
              event.preventDefault();
              isOpeningCategories.current = false;
            }
          }}
        >
          <DropdownMenu.Label className="px-3 py-2">
            <span className="block truncate text-sm font-semibold text-white">{user.name}</span>
            <span className="block truncate text-xs text-gray-400">{user.email}</span>
          </DropdownMenu.Label>
          <DropdownMenu.Separator className="my-1 h-px bg-white/10" />
          {menuLinks
            .filter((link) => link.isShown?.(user) ?? true)
            .map(({ to, label, Icon }) => (
              <DropdownMenu.Item key={to} asChild className={itemClass}>
                <Link to={to}>
                  <Icon className="size-4" aria-hidden="true" />
                  {label}
                </Link>
              </DropdownMenu.Item>
            ))}
          {showCategories && (
            <DropdownMenu.Item
              className={itemClass}
              onSelect={() => {
                isOpeningCategories.current = true;
                onOpenCategories();
              }}
            >
              <LayoutGrid className="size-4" aria-hidden="true" />
              Categories
            </DropdownMenu.Item>
          )}
          <DropdownMenu.Separator className="my-1 h-px bg-white/10" />
          <DropdownMenu.Item
            className={itemClass}
            disabled={logout.isPending}
            onSelect={() => logout.mutate()}
          >
            <LogOut className="size-4" aria-hidden="true" />
            Logout
          </DropdownMenu.Item>
          <DropdownMenu.Item
            className={itemClass}
            disabled={logout.isPending || logoutEverywhere.isPending}
            onSelect={() => logoutEverywhere.mutate()}
          >
            <MonitorSmartphone className="size-4" aria-hidden="true" />
            Sign out everywhere
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
