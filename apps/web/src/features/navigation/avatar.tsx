import { User } from 'lucide-react';
import { getUserInitial } from './user-initial.ts';

export const avatarClassName =
  'inline-flex size-10 items-center justify-center rounded-full bg-gradient-to-br from-violet-600 to-pink-600 text-lg font-bold text-white ring-2 ring-white/10 hover:ring-white/40';

export function AvatarContent({ name }: { name: string }) {
  const initial = getUserInitial(name);
  return initial ? (
    <span aria-hidden="true" data-testid="avatar-initial">
      {initial}
    </span>
  ) : (
    <User className="size-5" aria-hidden="true" data-testid="avatar-icon" />
  );
}
