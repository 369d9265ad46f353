import { AtSign, GitBranch, MessageCircle } from 'lucide-react';
import type { LucideIcon } from 'lucide-react';

export interface SocialLink {
  label: string;
  href: string;
  icon: LucideIcon;
}

/** The project's public accounts, shown under 'Connect With Us'. */
export const socialLinks: SocialLink[] = [
  { label: 'GitHub', href: 'https://github.com/sticky-gifs/sticky', icon: GitBranch },
  { label: 'Mastodon', href: 'https://mastodon.social/@sticky', icon: MessageCircle },
  { label: 'Bluesky', href: 'https://bsky.app/profile/sticky.bsky.social', icon: AtSign },
];
