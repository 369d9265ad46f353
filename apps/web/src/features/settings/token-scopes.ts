import { tokenLifetimeDays } from '@sticky/contracts';
import type { TokenScope } from '@sticky/contracts';

/**
 * What each scope lets whoever holds the token do, in the words /settings shows
 * (docs/security.md, "API tokens"): the name of its checkbox, and what it allows.
 */
export const tokenScopeTexts: Record<TokenScope, { label: string; description: string }> = {
  upload: {
    label: 'Upload',
    description: 'Upload files as you, and see how your uploads are doing.',
  },
  items: {
    label: 'Edit your items',
    description: 'Change the title, tags and details of what you uploaded, and delete it.',
  },
  read: {
    label: 'Read',
    description:
      'Search and browse this Sticky as you, through the GIPHY and Tenor APIs (/v1, /v2), and read your items and favorites.',
  },
  admin: {
    label: 'Admin',
    description:
      'Use your admin rights: see everyone’s uploads, and edit, hide and delete any item. Only while you are an admin.',
  },
};

/** The lifetimes the form offers, in days; the contracts' default and longest among them. */
export const tokenLifetimeOptions = [
  { days: 7, label: '7 days' },
  { days: 30, label: '30 days' },
  { days: tokenLifetimeDays.default, label: `${tokenLifetimeDays.default} days` },
  { days: tokenLifetimeDays.max, label: 'A year' },
] as const;
