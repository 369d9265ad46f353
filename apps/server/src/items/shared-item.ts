import type { GiphyItem } from '@sticky/contracts';
import { loadItemsByIds } from '../catalog/query/items.ts';
import type { CatalogDeps } from '../catalog/query/items.ts';
import { serializeItems } from '../catalog/query/serialize.ts';
import { AppError } from '../lib/app-error.ts';
import { resolveUploadLink } from '../uploads/uploads-service.ts';
import type { UploadsDeps } from '../uploads/uploads-service.ts';

const notShared = () => new AppError('not_found', 'This link leads nowhere.');

/**
 * A public or unlisted item as a signed-out person sees it from a shared link, only when the
 * operator set PUBLIC_LINKS (docs/uploads.md, "Links"). Private and hidden items are never
 * shared (`loadItemsByIds` leaves them out): the same 404 as an unknown id.
 */
export async function loadSharedItem(deps: CatalogDeps, id: string): Promise<GiphyItem> {
  if (!deps.config.publicLinks || deps.config.giphy) throw notShared();
  const [row] = await loadItemsByIds(deps, [id]);
  if (!row) throw notShared();
  const [item] = await serializeItems(deps, [row]);
  if (!item) throw notShared();
  return item;
}

/** Where an upload's link stands, with the item page's path once it is ready; 404 when gone. */
export async function readUploadLinkState(
  deps: UploadsDeps,
  uploadId: string,
): Promise<{ state: 'processing' } | { state: 'ready'; path: string }> {
  const link = await resolveUploadLink(deps, uploadId);
  if (link.state === 'processing') return { state: 'processing' };
  if (link.state === 'ready') return { state: 'ready', path: new URL(link.url).pathname };
  throw notShared();
}
