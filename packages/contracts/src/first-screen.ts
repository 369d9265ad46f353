import type { ClientConfig } from './api.ts';
import type { MeResponse, SessionUser } from './auth.ts';
import type {
  FavoriteWriteResponse,
  FavoritesResponse,
  MergeFavoritesResponse,
} from './favorites.ts';
import { favoriteIdPattern } from './item-id.ts';
import { itemVisibilities } from './item-visibility.ts';
import type { ItemVisibility, OwnedItem } from './uploads.ts';

/**
 * Checkers for the answers the web app's first screens wait for (`GET /api/auth/me`,
 * `GET /api/config`, the favorites) that do not need zod: zod is most of the app's own code,
 * and any zod schema on a first screen brings its shared core with it. The zod schemas stay
 * the contract: the results are typed by them, and first-screen.test.ts runs both over the
 * same answers. Like zod, unknown keys are dropped.
 */
type SafeParseResult<T> =
  { success: true; data: T } | { success: false; error: { message: string } };

interface FirstScreenSchema<T> {
  safeParse(value: unknown): SafeParseResult<T>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNullableString(value: unknown): value is string | null {
  return value === null || typeof value === 'string';
}

function fail<T>(message: string): SafeParseResult<T> {
  return { success: false, error: { message } };
}

function readSessionUser(value: unknown): SessionUser | null {
  if (!isRecord(value)) return null;
  const { id, name, email, picture, isAdmin, canUpload } = value;
  if (typeof id !== 'string' || typeof name !== 'string' || typeof email !== 'string') return null;
  if (!isNullableString(picture)) return null;
  if (typeof isAdmin !== 'boolean' || typeof canUpload !== 'boolean') return null;
  return { id, name, email, picture, isAdmin, canUpload };
}

export const meResponseFirstScreenSchema: FirstScreenSchema<MeResponse> = {
  safeParse(value) {
    if (!isRecord(value)) return fail('expected an object');
    if (value.success === false) {
      return value.user === null
        ? { success: true, data: { success: false, user: null } }
        : fail('user: expected null');
    }
    if (value.success !== true) return fail('success: expected a boolean');
    const user = readSessionUser(value.user);
    return user ? { success: true, data: { success: true, user } } : fail('user: invalid');
  },
};

export const clientConfigFirstScreenSchema: FirstScreenSchema<ClientConfig> = {
  safeParse(value) {
    if (!isRecord(value)) return fail('expected an object');
    const { source, apiKey, apiUrl, analyticsScriptUrl, analyticsScriptIntegrity } = value;
    const { publicLinks, canBecomeAdminLocally } = value;
    if (typeof apiKey !== 'string') return fail('apiKey: expected a string');
    if (!isNullableString(analyticsScriptUrl)) return fail('analyticsScriptUrl: invalid');
    if (analyticsScriptIntegrity !== undefined && !isNullableString(analyticsScriptIntegrity)) {
      return fail('analyticsScriptIntegrity: invalid');
    }
    const integrity = analyticsScriptIntegrity === undefined ? {} : { analyticsScriptIntegrity };
    if (source === 'local') {
      if (publicLinks !== undefined && typeof publicLinks !== 'boolean') {
        return fail('publicLinks: expected a boolean');
      }
      if (canBecomeAdminLocally !== undefined && typeof canBecomeAdminLocally !== 'boolean') {
        return fail('canBecomeAdminLocally: expected a boolean');
      }
      const links = publicLinks === undefined ? {} : { publicLinks };
      const admin = canBecomeAdminLocally === undefined ? {} : { canBecomeAdminLocally };
      return {
        success: true,
        data: { source, apiKey, analyticsScriptUrl, ...integrity, ...links, ...admin },
      };
    }
    if (source === 'giphy') {
      if (typeof apiUrl !== 'string') return fail('apiUrl: expected a string');
      return {
        success: true,
        data: { source, apiKey, apiUrl, analyticsScriptUrl, ...integrity },
      };
    }
    return fail('source: expected local or giphy');
  },
};

function readFavoriteIds(value: unknown): string[] | null {
  if (!Array.isArray(value)) return null;
  return value.every((id) => typeof id === 'string' && favoriteIdPattern.test(id))
    ? (value as string[])
    : null;
}

export const favoritesResponseFirstScreenSchema: FirstScreenSchema<FavoritesResponse> = {
  safeParse(value) {
    if (!isRecord(value) || value.success !== true) return fail('success: expected true');
    const ids = readFavoriteIds(value.ids);
    return ids ? { success: true, data: { success: true, ids } } : fail('ids: invalid');
  },
};

export const mergeFavoritesResponseFirstScreenSchema: FirstScreenSchema<MergeFavoritesResponse> = {
  safeParse(value) {
    const parsed = favoritesResponseFirstScreenSchema.safeParse(value);
    if (!parsed.success) return parsed;
    const { merged } = value as Record<string, unknown>;
    if (typeof merged !== 'boolean') return fail('merged: expected a boolean');
    return { success: true, data: { ...parsed.data, merged } };
  },
};

export const favoriteWriteResponseFirstScreenSchema: FirstScreenSchema<FavoriteWriteResponse> = {
  safeParse(value) {
    if (!isRecord(value) || value.success !== true) return fail('success: expected true');
    const { id, isFavorite } = value;
    if (typeof id !== 'string' || !favoriteIdPattern.test(id)) return fail('id: invalid');
    if (typeof isFavorite !== 'boolean') return fail('isFavorite: expected a boolean');
    return { success: true, data: { success: true, id, isFavorite } };
  },
};

/**
 * What the signed-in person may do with an item, and who else sees it: the item page's
 * question to `GET /api/items/{id}`.
 */
export type ItemRights = Pick<
  OwnedItem,
  'canEdit' | 'canDelete' | 'canHide' | 'visibility' | 'isHidden'
> & {
  /** The owner's user id, answered to the owner and admins only; null otherwise. */
  ownerId: string | null;
};

function readVisibility(value: unknown): ItemVisibility {
  return itemVisibilities.find((visibility) => visibility === value) ?? 'public';
}

/**
 * The rights in an answer of `GET /api/items/{id}` (ownedItemResponseSchema), read without zod:
 * every item page asks, and only its owner and admins need the code that edits it.
 */
export const itemRightsFirstScreenSchema: FirstScreenSchema<ItemRights> = {
  safeParse(value) {
    if (!isRecord(value) || value.success !== true) return fail('success: expected true');
    const { item } = value;
    if (!isRecord(item)) return fail('item: expected an object');
    const { canEdit, canDelete, canHide } = item;
    if (typeof canEdit !== 'boolean' || typeof canDelete !== 'boolean') {
      return fail('item: rights expected');
    }
    if (typeof canHide !== 'boolean') return fail('item.canHide: expected a boolean');
    // Who sees it only words a note on the page: rights are all an answer must have.
    const { visibility, isHidden, owner } = item;
    const ownerId = isRecord(owner) && typeof owner.id === 'string' ? owner.id : null;
    return {
      success: true,
      data: {
        canEdit,
        canDelete,
        canHide,
        visibility: readVisibility(visibility),
        isHidden: isHidden === true,
        ownerId,
      },
    };
  },
};

/**
 * The home page's trending request (docs/web.md, "The spec's rules the web keeps": 25 a page,
 * rated g), which the web asks and the server answers ahead in the HTML of `/`.
 */
export const homeTrendingParams = { limit: 25, rating: 'g' } as const;

/**
 * The modules the web app's router loads lazily to show `/` to a signed-in person (the home
 * page and the signed-in header), as Vite's build manifest names them: the server preloads
 * their scripts with the page (docs/web.md, "First page").
 */
export const homeRouteModules = [
  'src/features/home/index.ts',
  'src/features/navigation/signed-in-chrome.tsx',
] as const;

/**
 * The `<script type="application/json">` in which the HTML of every page carries, for a
 * signed-in request, what `GET /api/auth/me` would answer (docs/web.md, "First page"): the app
 * starts with the session it holds instead of asking, so a signed-in screen and its header
 * are drawn whole from the first render. Data, not a script: nothing runs.
 */
export const sessionElementId = 'sticky-session';

/**
 * The `<script type="application/json">` in which the HTML of `/` carries, for a signed-in
 * person, the first page of trending: `/v1`'s own answer with each item's renditions cut down to
 * its tile's (`tileRenditions`), and the request it answers in its `data-request` attribute
 * (docs/web.md, "First page"). Data, not a script: nothing runs.
 */
export const firstPageElementId = 'sticky-first-page';

/**
 * The renditions a grid tile is drawn from, each with the one that stands in when an item has
 * none: the 200 px wide animation and its still. The first page in the HTML of `/` carries only
 * these of each item's renditions (docs/web.md, "First page"): the other twenty are three
 * quarters of a page's bytes, content-hashed URLs that do not compress.
 */
export const tileRenditions = {
  animated: ['fixed_width', 'original'],
  still: ['fixed_width_still', 'original_still'],
} as const;

/** The name of the first of `names` that `images` has. */
export function findRenditionName(
  images: Partial<Record<string, unknown>> | undefined,
  names: readonly string[],
): string | undefined {
  return names.find((name) => images?.[name]);
}

/** The first of `names` that `images` has. */
export function pickRendition<T>(
  images: Partial<Record<string, T>> | undefined,
  names: readonly string[],
): T | undefined {
  const name = findRenditionName(images, names);
  return name === undefined ? undefined : images?.[name];
}

/** A trending request, written the same way by the server that answers it and the web. */
export function describeTrendingRequest(request: {
  type: string;
  limit: number;
  offset: number;
  rating: string;
}): string {
  const { type, limit, offset, rating } = request;
  return `${type}/trending?limit=${limit}&offset=${offset}&rating=${rating}`;
}

/** A size as GIPHY writes it (a string of digits), or as a number; missing when unknown. */
type ByteSize = string | number | undefined;

/** The fields of a GIPHY rendition that say what it can be shown as, and at what cost. */
export interface RenditionMedia {
  url?: string;
  size?: ByteSize;
  webp?: string;
  webp_size?: ByteSize;
  mp4?: string;
  mp4_size?: ByteSize;
  /**
   * Ours, beside GIPHY's fields: VP9, with alpha for transparent items; a GIF's grid tile has
   * one beside its MP4.
   */
  webm?: string;
  webm_size?: ByteSize;
}

export interface VideoSupport {
  /** Stickers and animated text: never an MP4 (no alpha), a WebM where alpha plays. */
  isTransparent: boolean;
  canPlayMp4: boolean;
  /** VP9 WebM without alpha, as a GIF's grid tile has beside its MP4. */
  canPlayWebm: boolean;
  canPlayAlphaWebm: boolean;
}

type VideoField = 'mp4' | 'webm';

const videoTypes = { mp4: 'video/mp4', webm: 'video/webm' } as const;

function byteCount(value: ByteSize): number | undefined {
  const bytes = Number(value);
  return value !== undefined && value !== '' && Number.isFinite(bytes) && bytes > 0
    ? bytes
    : undefined;
}

/**
 * A still as a video's poster: the lighter of its WebP (Sticky's stills carry one beside
 * GIPHY's GIF, usually a fraction of its bytes) and its image.
 */
export function pickPoster(
  still: { url?: string; size?: ByteSize; webp?: string; webp_size?: ByteSize } | undefined,
): { url: string; size: ByteSize } | undefined {
  const image = still?.url ? { url: still.url, size: still.size } : undefined;
  if (!still?.webp) return image;
  const webp = { url: still.webp, size: still.webp_size };
  const [webpBytes, imageBytes] = [byteCount(webp.size), byteCount(image?.size)];
  if (image && webpBytes !== undefined && imageBytes !== undefined && imageBytes < webpBytes) {
    return image;
  }
  return webp;
}

/**
 * Which video a rendition plays as, and its poster, or null when it shows as its image
 * (docs/web.md, "Media"): a video the browser plays without losing the item's transparency
 * (WebM with alpha for stickers and text; for GIFs the lighter of the MP4 and, where VP9 plays,
 * the WebM), unless the rendition's WebP (or its GIF, without one) is no more bytes than the
 * video and its poster, which are both fetched. Video is usually the lighter; flat, few-colour
 * art (terminal recordings) is lighter as WebP. Sizes unknown: the video (the MP4 of a GIF).
 * `videoFallbacks` stand in for a rendition without a video of its own (the item page: the
 * original's). The web shows tiles by it and the server preloads what the first tiles show by
 * it, so both must agree.
 */
export function pickVideoSource(
  rendition: RenditionMedia | undefined,
  still: RenditionMedia | undefined,
  support: VideoSupport,
  videoFallbacks: ReadonlyArray<RenditionMedia | undefined> = [],
): { src: string; type: 'video/mp4' | 'video/webm'; poster: string | undefined } | null {
  const playable: VideoField[] = support.isTransparent
    ? support.canPlayAlphaWebm
      ? ['webm']
      : []
    : [
        ...(support.canPlayMp4 ? (['mp4'] as const) : []),
        ...(support.canPlayWebm ? (['webm'] as const) : []),
      ];
  const source = [rendition, ...videoFallbacks].find((entry) =>
    playable.some((field) => entry?.[field]),
  );
  if (!source) return null;
  const sizeOf = (field: VideoField) =>
    byteCount(source[field === 'mp4' ? 'mp4_size' : 'webm_size']);
  // The first the source has, unless another is known to be lighter.
  const field = playable
    .filter((candidate) => source[candidate])
    .reduce((best, candidate) => {
      const [bestBytes, bytes] = [sizeOf(best), sizeOf(candidate)];
      return bestBytes !== undefined && bytes !== undefined && bytes < bestBytes ? candidate : best;
    });
  const src = source[field]!;
  const poster = pickPoster(still);
  const hasImage = Boolean(rendition?.url || rendition?.webp);
  const imageBytes = byteCount(rendition?.webp ? rendition.webp_size : rendition?.size);
  const videoBytes = sizeOf(field);
  const posterBytes = poster ? byteCount(poster.size) : 0;
  if (
    hasImage &&
    imageBytes !== undefined &&
    videoBytes !== undefined &&
    posterBytes !== undefined
  ) {
    if (imageBytes <= videoBytes + posterBytes) return null;
  }
  return { src, type: videoTypes[field], poster: poster?.url };
}
