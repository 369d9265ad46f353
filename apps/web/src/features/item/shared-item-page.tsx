import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { buttonStyles } from '@/components/button-styles.ts';
import { PageLoader } from '@/components/spinner.tsx';
import { RedirectToLanding, useSignInDialog } from '@/features/auth';
import { getIdFromSlug, isItemType } from '@/features/content';
import { clientConfigQueryOptions } from '@/lib/client-config-api.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { sharedItemQueryOptions } from './api/shared-item.ts';
import { ItemMedia } from './item-media.tsx';

/**
 * An item page as a signed-out person meets it (docs/uploads.md, "Links"): with PUBLIC_LINKS,
 * a public or unlisted item's GIF and title and a way to sign in; otherwise (and for any item
 * the server does not share) the landing page, which says a GIF waits after sign-in.
 */
export function SharedItemPage() {
  const { type, slug = '' } = useParams();
  const id = getIdFromSlug(slug);
  const config = useQuery(clientConfigQueryOptions);
  const isShared =
    isItemType(type) && config.data?.source === 'local' && config.data.publicLinks === true;
  const shared = useQuery({ ...sharedItemQueryOptions(id), enabled: isShared });
  const item = shared.data;
  useDocumentTitle(item ? item.title || 'Untitled' : undefined);
  const { openSignIn, preloadSignIn } = useSignInDialog();

  if (config.isPending || (isShared && shared.isPending)) return <PageLoader />;
  if (!isShared || !item) return <RedirectToLanding />;

  return (
    <article className="mx-auto flex max-w-3xl flex-col items-center gap-6 py-4 text-center">
      <h1 className="text-2xl font-extrabold break-words">{item.title || 'Untitled'}</h1>
      <ItemMedia item={item} />
      <p className="text-gray-300">
        Sign in to Sticky to search, save and share GIFs like this one.
      </p>
      <button
        type="button"
        className={`${buttonStyles.primary} px-6 py-3`}
        onClick={openSignIn}
        onPointerEnter={preloadSignIn}
        onFocus={preloadSignIn}
        aria-haspopup="dialog"
      >
        Sign in
      </button>
    </article>
  );
}
