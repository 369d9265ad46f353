import type { GifResult, GifsResult, ICategory } from '@giphy/js-fetch-api';
import type { ItemType } from '@sticky/contracts';

/** One item as `@giphy/js-fetch-api` hands it over (normalised: numbers, booleans). */
export type ContentItem = GifResult['data'];
export type ContentRendition = ContentItem['images']['original'];
export type ContentCategory = Omit<ICategory, 'subcategories'> & {
  subcategories?: { name: string; name_encoded: string }[];
};
export type ContentListResult = GifsResult;

/** The user object GIPHY sends; the SDK's type lacks `description`, which the spec shows. */
export interface ContentUser {
  avatar_url?: string;
  display_name?: string;
  username?: string;
  description?: string;
  profile_url?: string;
  is_verified?: boolean;
}

/** One page of a grid, with where the next one starts (undefined: the end). */
export interface ContentPage {
  items: ContentItem[];
  nextOffset: number | undefined;
}

export const itemTypes = ['gif', 'sticker', 'text'] as const satisfies readonly ItemType[];

/**
 * docs/web.md, "The spec's rules the web keeps"; GIPHY's largest offset (docs/api.md,
 * "Parameters").
 */
export const contentLimits = {
  pageSize: 25,
  relatedLimit: 15,
  maxOffset: 4999,
  descriptionPreview: 60,
} as const;
