export { categoriesQueryOptions, subcategoriesQueryOptions } from './api/categories.ts';
export { categoryItemsQueryOptions } from './api/category-items.ts';
export { downloadMedia } from './api/download.ts';
export { recordItemEvent } from './api/events.ts';
export { itemQueryOptions } from './api/item.ts';
export { itemsByIdsQueryOptions } from './api/items-by-ids.ts';
export { normalizeItem } from './api/normalize-items.ts';
export { relatedQueryOptions } from './api/related.ts';
export { searchQueryOptions } from './api/search.ts';
export { trendingQueryOptions } from './api/trending.ts';
export { ContentGrid } from './components/content-grid.tsx';
export type { ContentGridProps } from './components/content-grid.tsx';
export { ErrorState } from './components/error-state.tsx';
export { LoadingIndicator } from './components/loading-indicator.tsx';
export { PoweredByGiphy } from './components/powered-by-giphy.tsx';
export { TypeSwitcher } from './components/type-switcher.tsx';
export { LoopingVideo } from './media/looping-video.tsx';
export { RenditionPicture } from './media/rendition-picture.tsx';
export {
  getAltText,
  getCaption,
  getIdFromSlug,
  getItemPath,
  getItemType,
  getItemUser,
  getRenditionSources,
  getStillFor,
  isItemType,
  isTransparentItem,
  pickAnimatedSource,
  pickDetailRendition,
  pickTileSources,
} from './content-item.ts';
export type { ImageSources, ItemMediaSource } from './content-item.ts';
export { contentClientQueryOptions } from './content-client.ts';
export type { ContentClient } from './content-client.ts';
export { contentLimits } from './content-types.ts';
export type { ContentCategory, ContentItem, ContentPage, ContentUser } from './content-types.ts';
export { useContentFilter } from './hooks/use-content-filter.ts';
export { usePrefersReducedMotion } from './hooks/use-media-query.ts';
